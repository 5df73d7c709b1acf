import { ExecuteContext, RoutingNode } from 'n8n-core';
import {
	createRunExecutionData,
	Workflow,
	type ICredentialsDecrypted,
	type ICredentialTestRequest,
	type IExecuteData,
	type INode,
	type INodeCredentialTestResult,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
} from 'n8n-workflow';

import { createAdditionalData, CREDENTIAL_ID, type HarnessCredentials } from './workflow';
import { JOB_SEARCH_TYPE, loadNodeTypes } from './nodeTypes';
import { releaseCoreTimers } from './timers';

/** lodash's `get` for a dotted path, which is what n8n uses to read a rule's key. */
function valueAt(root: unknown, path: string): unknown {
	let value = root;
	for (const part of path.split('.')) {
		if (value === null || value === undefined) return undefined;
		value = (value as Record<string, unknown>)[part];
	}
	return value;
}

/**
 * Tests a credential the way n8n's CredentialsTester does for a declarative `test` request:
 * a copy of a node that uses the credential, whose only property routes the test request,
 * run by n8n-core's RoutingNode; an answer outside 2xx fails with the matching rule's message.
 */
export async function testCredential(
	credentials: HarnessCredentials,
	credentialType = 'jobSearchApi',
): Promise<INodeCredentialTestResult> {
	const types = loadNodeTypes();
	const type = types.credentialTypes.get(credentialType);
	const testRequest = type?.test as ICredentialTestRequest | undefined;
	if (!testRequest) return { status: 'Error', message: 'No testing function found for this credential.' };

	const { additionalData, credentialsHelper } = createAdditionalData(credentials, types);
	const nodeType = types.nodes[JOB_SEARCH_TYPE];
	const nodeTypeCopy: INodeType = {
		description: {
			...nodeType.description,
			credentials: [{ name: credentialType, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: testRequest.request }, default: '' },
			],
		},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeTypeCopy,
		getByNameAndVersion: () => nodeTypeCopy,
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: nodeTypeCopy.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credentialType]: { id: CREDENTIAL_ID, name: 'Job Search account' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const decrypted: ICredentialsDecrypted = {
		id: CREDENTIAL_ID,
		name: 'Job Search account',
		type: credentialType,
		data: credentialsHelper.withDefaults(credentialType, { ...credentials }),
	};
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	let response: Awaited<ReturnType<RoutingNode['runNode']>>;
	try {
		response = await new RoutingNode(context, nodeTypeCopy, decrypted).runNode();
	} catch (error) {
		releaseCoreTimers();
		const response = (error as { cause?: { response?: { status: number; statusText?: string } } }).cause?.response;
		if (response) {
			const rule = testRequest.rules?.find(
				(r) => r.type === 'responseCode' && r.properties.value === response.status,
			);
			if (rule && rule.type === 'responseCode') return { status: 'Error', message: rule.properties.message };
			if (response.status < 199 || response.status > 299) {
				return { status: 'Error', message: response.statusText || `Received HTTP status code: ${response.status}` };
			}
		}
		const code = (error as { cause?: { code?: string } }).cause?.code;
		return { status: 'Error', message: code ?? (error as Error).message };
	}
	releaseCoreTimers();
	// As n8n's CredentialsTester: a rule that matches the body of a request that did not throw
	// (lodash `get` on the first output item's json, compared with ===) fails the test.
	for (const rule of testRequest.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const json = (response as INodeExecutionData[][] | undefined)?.[0]?.[0]?.json as unknown;
		if (valueAt(json, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
