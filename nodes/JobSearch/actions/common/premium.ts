import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { ToolName } from '../../filters';
import type { ToolResult } from '../../transport';
import { errorDetails } from '../../transport/errors';
import type { ItemRun } from './types';

export type PremiumOutcome<T> = { result: ToolResult<T> } | { declined: INodeExecutionData[] };

/**
 * Calls a tool that may need the premium addon. On 403 addon_forbidden the item is skipped or
 * passed through when the "On Premium Not Included" option says so; every other error stands.
 */
export async function callPremium<T = IDataObject>(
	run: ItemRun,
	tool: ToolName,
	body: IDataObject,
): Promise<PremiumOutcome<T>> {
	const choice = run.options.onPremiumNotIncluded;
	// Settled rather than caught, so that every other error propagates untouched.
	const [settled] = await Promise.allSettled([run.call<T>(tool, body)]);
	if (settled.status === 'fulfilled') return { result: settled.value };
	const error: unknown = settled.reason;
	if (choice === 'error' || errorDetails(error).error_code !== 'addon_forbidden') return await Promise.reject(error);
	if (choice === 'skip') return { declined: [] };
	const note = `Not enriched: ${(error as Error).message}. The item is passed through unchanged.`;
	return {
		declined: [
			{
				json: { ...run.item.json, jobSearchNote: note },
				...(run.item.binary ? { binary: run.item.binary } : {}),
				pairedItem: { item: run.itemIndex },
			},
		],
	};
}
