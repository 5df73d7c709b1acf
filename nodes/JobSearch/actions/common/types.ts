import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ToolName } from '../../filters';
import type { ToolResult } from '../../transport';

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

/** One input item's run: its index and item, its options, and the way to call a tool within the execution's limits. */
export interface ItemRun {
	itemIndex: number;
	item: INodeExecutionData;
	options: ItemOptions;
	/** Calls the tool within the execution's credit cap, pacing and retry bounds. */
	call<T = IDataObject>(tool: ToolName, body: IDataObject): Promise<ToolResult<T>>;
	/** What the execution's Max Credit has not spent yet (reservations aside); Infinity without a cap. */
	creditUnspentMicrocents(): number;
}

/**
 * One operation: its fields, and its run in two steps, so that every item's input is checked
 * before the first request of the execution is sent (and billed).
 */
export interface Operation<Prepared> {
	/** What an AI model reads about the operation as a tool: the default of its Tool Description. */
	toolDescription: string;
	/** The operation's own fields; the node's description says where they show. */
	properties?: readonly INodeProperties[];
	/**
	 * Set on the operations that look up one job by its Job UID: they show the Job UID field, and
	 * the items of one execution that ask for the same lookup share its answer (one request, billed once).
	 */
	keyedByJobUid?: true;
	/**
	 * Reads item `itemIndex`'s parameters, checks them and builds its request. Sends nothing;
	 * bad input throws a NodeOperationError that names the field and `[item N]`.
	 */
	prepare(this: IExecuteFunctions, itemIndex: number): Prepared;
	/**
	 * The first call `send` will make for what `prepare` built, so the execution's worst case is
	 * known before anything is sent (a Return All walk: its first page; later pages are checked
	 * as the walk goes).
	 */
	plannedCall(prepared: Prepared): { tool: ToolName; body: IDataObject };
	/** Sends what `prepare` built and turns the answer into output items. */
	send(this: IExecuteFunctions, run: ItemRun, prepared: Prepared): Promise<INodeExecutionData[]>;
}

export type Router = { [R in Resource]: Record<OperationsOf[R], Operation<unknown>> };
