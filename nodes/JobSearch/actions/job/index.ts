import type { INodeProperties } from 'n8n-workflow';

import { simplifyProperty, toolOutputProperties } from '../../output';

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
	...search.description,
	...get.description,
	// After the operation's own fields, so that Job UID (required) comes first. An AI Agent's
	// tool call gets Output (Simplified, Raw, Selected Fields) in place of Simplify.
	simplifyProperty({ show: { resource: ['job'], '@tool': [false] } }),
	...toolOutputProperties({ resource: ['job'] }),
];
