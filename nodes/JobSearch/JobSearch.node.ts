import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import * as client from './actions/client';
import * as job from './actions/job';
import { optionsDescription } from './actions/common/options';
import { route } from './actions/router';

export class JobSearch implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Job Search',
		name: 'jobSearch',
		icon: { light: 'file:jobSearch.svg', dark: 'file:jobSearch.dark.svg' },
		group: ['transform'],
		version: 1,
		// The action as the nodes panel names it ("Search jobs"), not "search: job".
		subtitle:
			'={{ { search: "Search jobs", get: "Get a job", getActivity: "Get client activity", getHistory: "Get client history" }[$parameter["operation"]] }}',
		description: 'Search Upwork jobs with 53 filters and get job details, client activity and client history',
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
		// The node's "On Error" setting decides, for the whole run, whether an item that fails (bad
		// input, a refused or failed request) becomes an error item while the others go on, or
		// stops the node before any further request is sent.
		const continueOnFail = this.continueOnFail();
		return await route.call(this, { continueOnFail });
	}
}
