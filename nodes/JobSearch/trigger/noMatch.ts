import type { IDataObject, INode, NodeOperationError } from 'n8n-workflow';

import { FILTER_BY_KEY } from '../filters';
import { operationError } from '../transport';

/** "Fetch Test Event" found no job: n8n's own triggers' words (Google Calendar, Drive), and which filters to loosen (a user may doubt the trigger). */
export function noMatchingJob(node: INode, filters: IDataObject): NodeOperationError {
	const labels = Object.keys(filters).map((key) => FILTER_BY_KEY.get(key)?.title ?? `"${key}" (Additional Filters)`);
	const description =
		labels.length > 0
			? `No recent job matches all of these filters: ${labels.join(', ')}. Loosen or remove one of them and fetch again. Once published, the trigger sends each job that matches as it is posted.`
			: 'The service holds no recent job at all right now. Try again in a few minutes.';
	return operationError(node, 'no_matching_job', 'No data with the current filter could be found', { description });
}
