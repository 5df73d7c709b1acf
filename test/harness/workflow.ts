import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	Workflow,
	type ExecutionError,
	type ICredentialDataDecryptedObject,
	type IConnections,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type IRun,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentialsHelper';
import { loadNodeTypes, type LoadedTypes } from './nodeTypes';
import { releaseCoreTimers } from './timers';

export const CREDENTIAL_TYPE = 'jobSearchApi';
export const CREDENTIAL_ID = 'job-search-credential';

/** What a test puts in the Job Search API credential. */
export interface HarnessCredentials {
	apiKey: string;
	baseUrl?: string;
}

export interface HarnessContext {
	types: LoadedTypes;
	credentialsHelper: HarnessCredentialsHelper;
	additionalData: IWorkflowExecuteAdditionalData;
}

/**
 * The additionalData n8n-core needs to run nodes: a credentials helper holding `credentials`
 * under CREDENTIAL_ID, and execution lifecycle hooks. Also what a PollContext needs.
 */
export function createAdditionalData(
	credentials: HarnessCredentials,
	types: LoadedTypes = loadNodeTypes(),
	workflowData?: IWorkflowBase,
): HarnessContext {
	releaseCoreTimers();
	const store = new Map<string, ICredentialDataDecryptedObject>([[CREDENTIAL_ID, { ...credentials }]]);
	const credentialsHelper = new HarnessCredentialsHelper(types.credentialTypes, store);
	const hooks = new ExecutionLifecycleHooks('manual', `harness-${Date.now()}`, workflowData ?? emptyWorkflowData());
	const additionalData = {
		credentialsHelper,
		hooks,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not part of the harness');
		},
		getRunExecutionData: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost/rest',
		instanceBaseUrl: 'http://localhost/',
		formWaitingBaseUrl: 'http://localhost/form-waiting',
		webhookBaseUrl: 'http://localhost/webhook',
		webhookWaitingBaseUrl: 'http://localhost/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost/webhook-test',
		variables: {},
		logAiEvent: () => undefined,
		startRunnerTask: async () => {
			throw new Error('Task runners are not part of the harness');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
	return { types, credentialsHelper, additionalData };
}

function emptyWorkflowData(): IWorkflowBase {
	return {
		id: 'harness-workflow',
		name: 'Harness',
		active: false,
		isArchived: false,
		nodes: [],
		connections: {},
		settings: {},
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase;
}

/** Nodes of this package use the harness credential (whatever an imported workflow names); defaults for the rest. */
function withDefaults(nodes: Array<Partial<INode> & Pick<INode, 'name' | 'type'>>): INode[] {
	return nodes.map((node, index) => {
		const usesCredential = node.type.startsWith('n8n-nodes-job-search.');
		return {
			id: `node-${index}`,
			typeVersion: 1,
			position: [index * 200, 0] as [number, number],
			parameters: {},
			...node,
			credentials: usesCredential
				? { ...node.credentials, [CREDENTIAL_TYPE]: { id: CREDENTIAL_ID, name: 'Job Search account' } }
				: node.credentials,
		};
	}) as INode[];
}

export interface WorkflowSpec {
	nodes: Array<Partial<INode> & Pick<INode, 'name' | 'type'>>;
	connections?: IConnections;
	staticData?: IDataObject;
	active?: boolean;
	/** The workflow's time zone setting (IANA); n8n's default applies when unset. */
	timezone?: string;
}

export function createWorkflow(spec: WorkflowSpec, types: LoadedTypes = loadNodeTypes()): Workflow {
	return new Workflow({
		id: 'harness-workflow',
		name: 'Harness',
		nodes: withDefaults(spec.nodes),
		connections: spec.connections ?? {},
		active: spec.active ?? false,
		nodeTypes: types.nodeTypes,
		staticData: spec.staticData,
		settings: { executionOrder: 'v1', ...(spec.timezone ? { timezone: spec.timezone } : {}) },
	});
}

/** Connects nodes in a line: a → b → c. */
export function chain(...names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i + 1 < names.length; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

export interface WorkflowResult {
	/** Output items of the first output of each node that ran. */
	items: Record<string, INodeExecutionData[]>;
	/** The error a node ended with, by node name. */
	errors: Record<string, ExecutionError>;
	/** The workflow's error, when it failed. */
	error?: ExecutionError;
	run: IRun;
	/**
	 * What this package's nodes returned from execute(), before n8n-core filled in any missing
	 * `pairedItem` (it does for 1→N and N→N runs): the first output of each call, in order.
	 */
	returned: INodeExecutionData[][];
}

/** Wraps every execute() of this package's nodes so that what it returns is kept as returned. */
function recordReturns(types: LoadedTypes, withoutCancelSignal = false): INodeExecutionData[][] {
	const returned: INodeExecutionData[][] = [];
	for (const [name, nodeType] of Object.entries(types.nodes)) {
		const execute = nodeType.execute;
		if (!name.startsWith('n8n-nodes-job-search.') || !execute) continue;
		nodeType.execute = async function (this: IExecuteFunctions) {
			// Hosts whose context has getExecutionCancelSignal but no signal to give (n8n-core then
			// sends every request with `abortSignal: undefined`).
			const context = withoutCancelSignal ? Object.create(this, { getExecutionCancelSignal: { value: () => undefined } }) : this;
			const output = (await execute.call(context)) as INodeExecutionData[][];
			returned.push((output[0] ?? []).map((item) => ({ ...item })));
			return output;
		};
	}
	return returned;
}

export interface RunWorkflowOptions extends WorkflowSpec {
	credentials: HarnessCredentials;
	/** The node to start from; default the first node. */
	startNode?: string;
	mode?: WorkflowExecuteMode;
	/** Run this package's nodes in a context whose getExecutionCancelSignal returns undefined. */
	withoutCancelSignal?: boolean;
}

/** Runs a workflow inside real n8n-core (WorkflowExecute) and collects every node's output. */
export async function runWorkflow(options: RunWorkflowOptions): Promise<WorkflowResult> {
	const types = loadNodeTypes();
	const returned = recordReturns(types, options.withoutCancelSignal);
	const workflow = createWorkflow(options, types);
	const { additionalData } = createAdditionalData(options.credentials, types);
	const startNode = workflow.getNode(options.startNode ?? options.nodes[0].name) ?? undefined;
	const execution = new WorkflowExecute(additionalData, options.mode ?? 'manual');
	const run = await execution.run({ workflow, startNode });
	releaseCoreTimers();
	const items: Record<string, INodeExecutionData[]> = {};
	const errors: Record<string, ExecutionError> = {};
	for (const [name, tasks] of Object.entries(run.data.resultData.runData)) {
		const task = tasks[tasks.length - 1];
		if (task?.error) errors[name] = task.error;
		const output = task?.data?.main?.[0];
		if (output) items[name] = output;
	}
	return { items, errors, error: run.data.resultData.error, run, returned };
}
