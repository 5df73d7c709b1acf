import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import * as client from './actions/client';
import * as job from './actions/job';
import { optionsDescription } from './actions/common/options';
import { FILTERS } from './filters';
import { route } from './actions/router';

export class JobSearch implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Job Search',
		name: 'jobSearch',
		icon: { light: 'file:jobSearch.svg', dark: 'file:jobSearch.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: `Search Upwork jobs with ${FILTERS.length} filters and get job details, client activity and client history`,
		defaults: { name: 'Job Search' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'jobSearchApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Client', value: 'client' },
					{ name: 'Job', value: 'job' },
				],
				default: 'job',
			},
			...job.description,
			...client.description,
			optionsDescription,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}
}
