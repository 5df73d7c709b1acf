import type { IDataObject, INode, NodeOperationError } from 'n8n-workflow';

import { FILTER_BY_KEY } from '../filters';
import { operationError } from '../transport';

/**
 * "Fetch Test Event" found no job: n8n's own triggers' words (Google Calendar, Drive), and which filters to loosen (a user
 * may doubt the trigger); with several searches (`named`), each search's.
 */
export function noMatchingJob(node: INode, searches: { names: string[]; filters: IDataObject }[], named: boolean): NodeOperationError {
	const labels = searches.map(({ filters }) => Object.keys(filters).map((key) => FILTER_BY_KEY.get(key)?.title ?? `"${key}" (Additional Filters)`));
	const each = searches.map(({ names }, i) => `"${names.join('", "')}" (${labels[i].join(', ')})`);
	const description = labels.some((filters) => filters.length === 0)
		? 'The service holds no recent job at all right now. Try again in a few minutes.'
		: `${named ? `No recent job matches any search: ${each.join('; ')}` : `No recent job matches all of these filters: ${labels[0].join(', ')}`}. Loosen or remove one of them and fetch again. Once published, the trigger sends each job that matches as it is posted.`;
	return operationError(node, 'no_matching_job', 'No data with the current filter could be found', { description });
}
