import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as search from './search.operation';

export { get, search };

/** The Job resource's Operation field; the node's description says where it shows. */
export const operationField: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: [
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
	],
	default: 'search',
};
