import { NodeOperationError, deepCopy, type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import type { ToolName } from '../../filters';
import { callTool, type ToolResult } from '../../transport';
import { errorItem } from '../../output';
import { errorDetails, serviceError } from '../../transport/errors';
import type { ItemRun, Operation } from './types';
import { executionSettings, itemOptions } from './options';
import { CreditCap, Pacer } from './executionLimits';
import { CreditWatch } from './creditRunway';

/**
 * Which premium addon a call needs, as a key for remembering refusals; undefined when none.
 * get_job needs it only with client history.
 */
function addonOf(tool: ToolName, body: IDataObject): string | undefined {
	if (tool === 'get_client_activity' || tool === 'get_client_history') return tool;
	if (tool === 'get_job' && body.withClientHistory === true) return 'get_job+clientHistory';
	return undefined;
}

/**
 * Another item's answer to the same lookup, as this item's own: a copy of the data (items must not
 * share objects a later node may change), and no credit consumed, since none was for this item.
 */
function alreadyAnswered<T>(result: ToolResult<T>): ToolResult<T> {
	return { data: deepCopy(result.data as IDataObject) as T, usage: { consumedMicrocents: 0, remainingMicrocents: result.usage.remainingMicrocents } };
}

function remember(error: unknown, itemIndex: number): unknown {
	const context = (error as { context?: Record<string, unknown> })?.context;
	if (context && context.itemIndex === undefined) context.itemIndex = itemIndex;
	return error;
}

/** What execute() decides for the whole run. */
export interface RunSettings {
	/** The node's "On Error" setting: failing items become error items instead of stopping the node. */
	continueOnFail: boolean;
	/** Run as an AI Agent's tool: a refusal stops the call, to be answered to the model as text. */
	toolCall?: boolean;
}

interface ReadyItem<Prepared> {
	itemIndex: number;
	options: ReturnType<typeof itemOptions>;
	prepared: Prepared;
}

/**
 * Runs `operation` for every input item. First every item is prepared (parameters read and
 * checked, request built), so bad input anywhere fails the node before any credit is spent; with
 * continueOnFail such items become error items and the others still run. Then the prepared items
 * are sent with at most `concurrency` in flight, the output kept in input order with `pairedItem`.
 * On a failure without continueOnFail no new item starts, and the ones in flight send no further
 * request (a walk stops between pages).
 */
export async function runItems<Prepared>(
	this: IExecuteFunctions,
	operation: Operation<Prepared>,
	{ continueOnFail: onErrorContinue, toolCall = false }: RunSettings,
): Promise<INodeExecutionData[]> {
	// As a tool every refusal becomes the model's answer (router.ts), so none becomes an error item.
	const continueOnFail = onErrorContinue && !toolCall;
	const items = this.getInputData();
	const results: INodeExecutionData[][] = new Array(items.length);

	const ready: Array<ReadyItem<Prepared>> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const options = itemOptions.call(this, itemIndex);
			// A model cannot read a skipped item: a plan without the addon is a refusal it is told.
			if (toolCall) options.onPremiumNotIncluded = 'error';
			ready.push({ itemIndex, options, prepared: operation.prepare.call(this, itemIndex) });
		} catch (error) {
			if (!continueOnFail) throw remember(error, itemIndex);
			results[itemIndex] = [errorItem(error, itemIndex)];
		}
	}

	// An item that failed to prepare (with continueOnFail) may be the one whose options are broken.
	const settings = executionSettings.call(this, ready[0]?.itemIndex);
	const creditCap = new CreditCap(this.getNode(), settings.maxCreditMicrocents);
	// A run whose worst case passes Max Credit is refused whole, before its first request.
	const overCap = creditCap.refusalOfRun(
		ready.map(({ itemIndex, prepared }) => {
			const { tool, body } = operation.plannedCall(prepared);
			return { itemIndex, tool, body, sharedKey: operation.keyedByJobUid ? `${tool} ${JSON.stringify(body)}` : undefined };
		}),
	);
	if (overCap !== undefined) {
		if (!continueOnFail) throw overCap;
		for (const { itemIndex } of ready.splice(0)) results[itemIndex] = [errorItem(overCap, itemIndex)];
	}
	const pacer = new Pacer(settings.minIntervalMs);
	const credit = new CreditWatch();
	// The plan is the same for every item: after the first 403 addon_forbidden, the other items
	// that need the same addon are refused here without a request (and a rate-limit slot) each.
	const refusedAddons = new Set<string>();
	let next = 0;
	let failure: { error: unknown } | undefined;

	// The execution is failing: an item still in flight (a Return All walk between pages, a retry
	// waiting out its backoff) must not buy rows nobody will see.
	const refuseIfFailing = (itemIndex: number): void => {
		if (failure !== undefined) throw new NodeOperationError(this.getNode(), 'Not sent: another item of this execution failed', { itemIndex });
	};

	/** One call of the tool for one item, within the execution's credit cap, pacing and retry bounds. */
	const send = async <T>(itemIndex: number, options: ReadyItem<Prepared>['options'], tool: ToolName, body: IDataObject): Promise<ToolResult<T>> => {
		refuseIfFailing(itemIndex);
		const addon = addonOf(tool, body);
		if (addon !== undefined && refusedAddons.has(addon)) {
			const error = serviceError(this.getNode(), 403, { error_code: 'addon_forbidden' }, { tool, itemIndex });
			error.description = `${error.description ?? ''} Not sent: an earlier item of this execution was refused the same way.`;
			throw error;
		}
		// One reservation per attempt that could be billed: an unanswered attempt may have
		// been, so its worst case counts as spent and a retry must fit under the cap again.
		let reservation: number | undefined = creditCap.reserve(tool, body, itemIndex);
		let consumed = 0;
		try {
			const result = await callTool.call<IExecuteFunctions, [ToolName, IDataObject, object], Promise<ToolResult<T>>>(
				this,
				tool,
				body,
				{
					itemIndex,
					maxRetries: options.maxRetries,
					maxRetryWaitMs: options.maxRetryWaitMs,
					timeoutMs: options.timeoutMs,
					beforeAttempt: async () => {
						reservation ??= creditCap.reserve(tool, body, itemIndex);
						await pacer.wait();
						refuseIfFailing(itemIndex);
					},
					onUnanswered: () => {
						if (reservation !== undefined) creditCap.settle(reservation, reservation);
						reservation = undefined;
					},
				},
			).catch(async (error: unknown) => {
				if (addon !== undefined && errorDetails(error).error_code === 'addon_forbidden') refusedAddons.add(addon);
				credit.refused(error);
				return await Promise.reject(error);
			});
			consumed = result.usage.consumedMicrocents;
			credit.answered(result.usage);
			return result;
		} finally {
			if (reservation !== undefined) creditCap.settle(reservation, consumed);
		}
	};

	// A lookup by Job UID answers the same within one execution, so the items that ask for the same
	// one (a pasted link with five items in, a search that found a job twice) share its request
	// and its bill. Only an answer is shared: an item whose lookup failed has its own error, so
	// the next item asking sends the lookup itself.
	const lookups = new Map<string, Promise<ToolResult<unknown>>>();
	const lookUp = async <T>(itemIndex: number, options: ReadyItem<Prepared>['options'], tool: ToolName, body: IDataObject): Promise<ToolResult<T>> => {
		const key = `${tool} ${JSON.stringify(body)}`;
		for (let asked = lookups.get(key); asked !== undefined; asked = lookups.get(key)) {
			try {
				return alreadyAnswered((await asked) as ToolResult<T>);
			} catch {
				if (lookups.get(key) === asked) lookups.delete(key);
			}
		}
		const mine = send<T>(itemIndex, options, tool, body);
		lookups.set(key, mine);
		return await mine;
	};

	const sendOne = async ({ itemIndex, options, prepared }: ReadyItem<Prepared>): Promise<INodeExecutionData[]> => {
		const run: ItemRun = {
			itemIndex,
			item: items[itemIndex],
			options,
			creditUnspentMicrocents: () => creditCap.unspentMicrocents,
			// The promise itself, not one awaited inside another: a failure must reach the worker in as
			// few turns as before, or an item waiting for its turn to send could slip out first.
			call: <T = IDataObject>(tool: ToolName, body: IDataObject): Promise<ToolResult<T>> =>
				operation.keyedByJobUid ? lookUp<T>(itemIndex, options, tool, body) : send<T>(itemIndex, options, tool, body),
		};
		return await operation.send.call(this, run, prepared);
	};

	const worker = async (): Promise<void> => {
		while (failure === undefined && next < ready.length) {
			const item = ready[next++];
			try {
				results[item.itemIndex] = await sendOne(item);
			} catch (error) {
				if (!continueOnFail) {
					failure ??= { error: remember(error, item.itemIndex) };
					return;
				}
				results[item.itemIndex] = [errorItem(error, item.itemIndex)];
			}
		}
	};

	const workers = Math.min(settings.concurrency, Math.max(1, ready.length));
	await Promise.all(Array.from({ length: workers }, worker));
	// A failing run spent credit too: its spend counts toward the workflow's pace.
	credit.finish(this, settings.warnBelowMicrocents);
	if (failure !== undefined) throw failure.error;
	return results.flat();
}
