import type { IDataObject, INodeExecutionData, INodeParameters, NodeExecutionHint, WorkflowExecuteMode } from 'n8n-workflow';

import { chain, INPUT_TYPE, JOB_SEARCH_TYPE, runWorkflow, type HarnessCredentials, type WorkflowResult } from '../harness';

export interface NodeRun extends WorkflowResult {
	/** The Job Search node's output items. */
	output: INodeExecutionData[];
}

/** The execution hints the Job Search node gave in a run. */
export const hintsOf = (run: NodeRun): NodeExecutionHint[] => run.run.data.resultData.runData['Job Search']?.[0]?.hints ?? [];

export interface RunNodeOptions {
	/** The items the Job Search node receives; one empty item by default. */
	input?: IDataObject[];
	continueOnFail?: boolean;
	credentials: HarnessCredentials;
	/** The workflow's time zone setting. */
	timezone?: string;
	/** Run the node in a context whose getExecutionCancelSignal returns undefined. */
	withoutCancelSignal?: boolean;
	/** How the execution was started; 'manual' (the editor) by default. */
	mode?: WorkflowExecuteMode;
	/** The workflow's static data, as n8n loads it; the run writes into this object. */
	staticData?: IDataObject;
}

/** Runs Input → Job Search inside n8n-core with the given Job Search parameters. */
export async function runJobSearch(parameters: INodeParameters, options: RunNodeOptions): Promise<NodeRun> {
	const result = await runWorkflow({
		credentials: options.credentials,
		timezone: options.timezone,
		withoutCancelSignal: options.withoutCancelSignal,
		mode: options.mode,
		staticData: options.staticData,
		nodes: [
			{ name: 'Input', type: INPUT_TYPE, parameters: { items: JSON.stringify(options.input ?? [{}]) } },
			{
				name: 'Job Search',
				type: JOB_SEARCH_TYPE,
				parameters,
				...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			},
		],
		connections: chain('Input', 'Job Search'),
	});
	return { ...result, output: result.items['Job Search'] ?? [] };
}

export const search = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'job',
	operation: 'search',
	limit: 5,
	...extra,
});

export const getJob = (jobUid: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'job',
	operation: 'get',
	jobUid,
	...extra,
});

export const clientOp = (operation: 'getActivity' | 'getHistory', jobUid: string, extra: INodeParameters = {}) => ({
	resource: 'client',
	operation,
	jobUid,
	...extra,
});
