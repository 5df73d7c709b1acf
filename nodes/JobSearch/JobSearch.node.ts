import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import * as client from './actions/client';
import * as job from './actions/job';
import { optionsDescription } from './actions/common/options';
import { FILTERS } from './filters';
import { route } from './actions/router';
import { builderHint } from './builderHint';

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
		...builderHint({
			searchHint:
				"Search Upwork freelance job postings by keywords, skills, budget, hourly rate, client and country; get one job in full, and a client's hiring history. Also an AI agent tool that finds jobs. For alerts about new jobs, use Job Search Trigger.",
			relatedNodes: [
				{ nodeType: 'n8n-nodes-job-search.jobSearchTrigger', relationHint: 'Starts a workflow for each new matching job (job alerts)' },
			],
		}),
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
