import type { INodePropertyOptions } from 'n8n-workflow';

import * as get from './get.operation';
import * as search from './search.operation';

export { get, search };

/** The Job resource's operations, as its Operation field lists them. */
export const operations: INodePropertyOptions[] = [
	{
		name: 'Get',
		value: 'get',
		description:
			'Get full details of one job: description, skills, budget, client stats and connects to apply (items asking for the same job share one billed lookup)',
		action: 'Get a job',
	},
	{
		name: 'Search',
		value: 'search',
		description: 'Search job postings, newest first, with filters (billed per returned row)',
		action: 'Search jobs',
	},
];

/** The operation a new node of this resource starts with. */
export const defaultOperation = 'search';
