import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { properties } from './description';
import { poll } from './poll';

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
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'jobSearchApi', required: true }],
		properties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await poll.call(this);
	}
}
