import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { properties } from './actions/description';
import { route } from './actions/router';
import { isToolCall } from './actions/common/toolOutput';
import * as job from './actions/job';
import { FILTERS } from './filters';
import { builderHint } from './builderHint';

export class JobSearch implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Job Search',
		name: 'jobSearch',
		icon: { light: 'file:jobSearch.svg', dark: 'file:jobSearch.dark.svg' },
		group: ['transform'],
		// n8n adds a "Custom API Call" choice to the Resource and Operation lists of a node whose
		// credential has `authenticate`, when it thinks the description is the node's latest version:
		// defaultVersion unset, or equal to `version` (injectCustomApiCallOptions, n8n 2.8 to 2.41).
		// Choosing it renamed the node "__CUSTOM_API_CALL__ client" and ran nothing. Version 1 as a
		// list with defaultVersion 1 is the same single version to n8n, but fails that check.
		version: [1],
		defaultVersion: 1,
		// The action as the nodes panel names it ("Search jobs"), not "search: job".
		subtitle:
			'={{ { search: "Search jobs", get: "Get a job", getActivity: "Get client activity", getHistory: "Get client history" }[$parameter["operation"]] }}',
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
		properties,
		hints: [job.search.limitOverCapHint],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// The node's "On Error" setting decides, for the whole run, whether an item that fails (bad
		// input, a refused or failed request) becomes an error item while the others go on, or
		// stops the node before any further request is sent. Run as an AI Agent's tool, a refusal is
		// the tool's answer instead, for the model to act on.
		const continueOnFail = this.continueOnFail();
		return await route.call(this, { continueOnFail, toolCall: isToolCall(this) });
	}
}
