import type { IDataObject, INode, NodeOperationError } from 'n8n-workflow';

import { FILTER_BY_KEY } from '../filters';
import { operationError } from '../transport';

/** n8n's own polling triggers (Google Calendar, Google Drive) say this when a test finds nothing. */
export const NO_DATA_MESSAGE = 'No data with the current filter could be found';

/** The filters a search used, by the labels the user sees (a key from Additional Filters by its key). */
export function filterLabels(filters: IDataObject): string[] {
	return Object.keys(filters).map((key) => FILTER_BY_KEY.get(key)?.title ?? `"${key}" (Additional Filters)`);
}

/**
 * What "Fetch Test Event" says when no job matches: the same words as n8n's own triggers, and
 * which filters to loosen, so the user does not wonder whether the trigger works.
 */
export function noMatchingJob(node: INode, filters: IDataObject): NodeOperationError {
	const labels = filterLabels(filters);
	const description =
		labels.length > 0
			? `No recent job matches all of these filters: ${labels.join(', ')}. Loosen or remove one of them and fetch again. Once published, the trigger sends each job that matches as it is posted.`
			: 'The service holds no recent job at all right now. Try again in a few minutes.';
	return operationError(node, 'no_matching_job', NO_DATA_MESSAGE, { description });
}
