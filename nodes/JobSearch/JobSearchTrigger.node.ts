import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { builderHint } from './builderHint';
import { properties } from './trigger/description';
import { poll } from './trigger/poll';

/**
 * The trigger's one event, so the nodes panel lists it by a name a user recognises: n8n names a
 * trigger's actions after the options of its "Event" field (the option's `action`), and without
 * one shows a generic "On new Job Search event".
 */
const eventProperty: INodeProperties = {
	displayName: 'Event',
	name: 'event',
	type: 'options',
	noDataExpression: true,
	required: true,
	options: [
		{
			name: 'New Matching Job',
			value: 'newMatchingJob',
			action: 'On new matching job',
			description: 'Each new job that matches the filters, once',
		},
	],
	default: 'newMatchingJob',
};

export class JobSearchTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Job Search Trigger',
		name: 'jobSearchTrigger',
		icon: { light: 'file:jobSearchTrigger.svg', dark: 'file:jobSearchTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: 'New matching jobs',
		description: 'Get each new Upwork job that matches your filters once, or search jobs and get job and client details',
		defaults: { name: 'Job Search Trigger' },
		polling: true,
		...builderHint({
			searchHint:
				'Alert me about new Upwork jobs: starts the workflow with each new freelance job posting that matches keywords, skills, budget, client or country, each job once, checked on a schedule (every few minutes, hourly or custom), one item per job or one digest per check.',
			relatedNodes: [
				{ nodeType: 'n8n-nodes-job-search.jobSearch', relationHint: "Gets the full job, or the client's activity and history, for an alerted job uid" },
			],
		}),
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'jobSearchApi', required: true }],
		properties: [eventProperty, ...properties],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await poll.call(this);
	}
}
