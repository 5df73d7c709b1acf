import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ToolName } from '../../filters';
import { callTool, type ToolResult } from '../../transport';
import { errorItem } from '../../output';
import type { ItemRun, OperationHandler } from '../types';
import { executionSettings, itemOptions } from './options';
import { CreditBudget, Pacer } from './guards';

function remember(error: unknown, itemIndex: number): unknown {
	const context = (error as { context?: Record<string, unknown> })?.context;
	if (context && context.itemIndex === undefined) context.itemIndex = itemIndex;
	return error;
}

/**
 * Runs `handler` for every input item with at most `concurrency` items in flight, keeps the
 * output in input order with `pairedItem`, and turns failures into error items when the node
 * continues on fail. On a failure otherwise, no new item starts; the ones in flight finish.
 */
export async function runItems(this: IExecuteFunctions, handler: OperationHandler): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const settings = executionSettings.call(this);
	const budget = new CreditBudget(this.getNode(), settings.maxCreditMicrocents);
	const pacer = new Pacer(settings.minIntervalMs);
	const continueOnFail = this.continueOnFail();
	const results: INodeExecutionData[][] = new Array(items.length);
	let next = 0;
	let failure: { error: unknown } | undefined;

	const runOne = async (itemIndex: number): Promise<INodeExecutionData[]> => {
		const options = itemOptions.call(this, itemIndex);
		const run: ItemRun = {
			itemIndex,
			item: items[itemIndex],
			options,
			call: async <T = IDataObject>(tool: ToolName, body: IDataObject): Promise<ToolResult<T>> => {
				const reservation = budget.reserve(tool, body, itemIndex);
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
							beforeAttempt: async () => await pacer.wait(),
						},
					);
					consumed = result.usage.consumedMicrocents;
					return result;
				} finally {
					budget.settle(reservation, consumed);
				}
			},
		};
		return await handler.call(this, run);
	};

	const worker = async (): Promise<void> => {
		while (failure === undefined && next < items.length) {
			const itemIndex = next++;
			try {
				results[itemIndex] = await runOne(itemIndex);
			} catch (error) {
				if (!continueOnFail) {
					failure ??= { error: remember(error, itemIndex) };
					return;
				}
				results[itemIndex] = [errorItem(error, itemIndex)];
			}
		}
	};

	const workers = Math.min(settings.concurrency, Math.max(1, items.length));
	await Promise.all(Array.from({ length: workers }, worker));
	if (failure !== undefined) throw failure.error;
	return results.flat();
}
