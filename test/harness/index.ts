export { loadNodeTypes, registerNodeType, JOB_SEARCH_TYPE, JOB_SEARCH_TRIGGER_TYPE, INPUT_TYPE, PACKAGE_NAME, type LoadedTypes } from './nodeTypes';
export { HarnessCredentialsHelper } from './credentialsHelper';
export {
	createAdditionalData,
	createWorkflow,
	runWorkflow,
	chain,
	CREDENTIAL_ID,
	CREDENTIAL_TYPE,
	type HarnessCredentials,
	type HarnessContext,
	type RunWorkflowOptions,
	type WorkflowResult,
	type WorkflowSpec,
} from './workflow';
export { testCredential } from './credentialTest';
export { releaseCoreTimers } from './timers';
