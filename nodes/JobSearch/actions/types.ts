import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ToolName } from '../filters';
import type { ToolResult } from '../transport';

export type Resource = 'job' | 'client';

export interface OperationsOf {
	job: 'search' | 'get';
	client: 'getActivity' | 'getHistory';
}

export type OnPremiumNotIncluded = 'error' | 'skip' | 'passThrough';

/** The per-item options of the "Options" collection, with defaults applied. */
export interface ItemOptions {
	output: 'perJob' | 'wholeResponse';
	includeUsage: boolean;
	onPremiumNotIncluded: OnPremiumNotIncluded;
}

/** One input item's run: its index and item, its options, and the guarded way to call a tool. */
export interface ItemRun {
	itemIndex: number;
	item: INodeExecutionData;
	options: ItemOptions;
	/** Calls the tool within the execution's credit cap, pacing and retry bounds. */
	call<T = IDataObject>(tool: ToolName, body: IDataObject): Promise<ToolResult<T>>;
}

export type OperationHandler = (this: IExecuteFunctions, run: ItemRun) => Promise<INodeExecutionData[]>;

export type Router = { [R in Resource]: Record<OperationsOf[R], OperationHandler> };
