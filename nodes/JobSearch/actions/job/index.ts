import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as search from './search.operation';

export { get, search };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['job'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get full details of one job: description, skills, budget, client stats and connects to apply',
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
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		displayOptions: { show: { resource: ['job'] } },
		description: 'Whether to return a simplified version of the response instead of the raw data',
	},
	...search.description,
	...get.description,
];
