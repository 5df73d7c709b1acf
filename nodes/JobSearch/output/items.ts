import type { IDataObject, INodeExecutionData, IPairedItemData } from 'n8n-workflow';

import { errorDetails } from '../transport/errors';
import type { ToolUsage } from '../transport';
import { microcentsToUsd } from '../service/pricing';

/** `usage` as the node prints it: the service's microcents plus the same in USD for people. */
export function usageFields(usage: ToolUsage): IDataObject {
	return {
		consumedMicrocents: usage.consumedMicrocents,
		remainingMicrocents: usage.remainingMicrocents,
		consumedUsd: microcentsToUsd(usage.consumedMicrocents),
		remainingUsd: microcentsToUsd(usage.remainingMicrocents),
	};
}

export function withUsage(json: IDataObject, usage: ToolUsage | undefined): IDataObject {
	return usage ? { ...json, usage: usageFields(usage) } : json;
}

/**
 * One call's usage on the first of the items that call produced, and on no other: summed
 * downstream (a Summarize node, a sheet), "usage" then counts each call once.
 */
export function withCallUsage(jsons: IDataObject[], usage: ToolUsage | undefined): IDataObject[] {
	return jsons.map((json, index) => (index === 0 ? withUsage(json, usage) : json));
}

/**
 * The continueOnFail item: the message plus fields a workflow can branch on
 * (`error_code`, `httpCode`, `retryAfterMs` when the service gave one).
 */
export function errorItem(error: unknown, pairedItem: IPairedItemData | number): INodeExecutionData {
	const details = errorDetails(error);
	const description = (error as { description?: unknown })?.description;
	const json: IDataObject = {
		error: details.error,
		error_code: details.error_code,
		httpCode: details.httpCode,
	};
	if (typeof description === 'string' && description) json.description = description;
	if (details.retryAfterMs !== undefined) json.retryAfterMs = details.retryAfterMs;
	return { json, pairedItem: typeof pairedItem === 'number' ? { item: pairedItem } : pairedItem };
}
