import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { simplifyJobDetails, toolDescriptionProperty, withUsage } from '../../output';
import { PRICE_MICROCENTS, formatUsd } from '../../pricing';
import { plansWithPremiumAddon } from '../../service';
import { jobUidField } from '../common/fields';
import { readJobUid } from '../common/jobUid';
import { callPremium } from '../common/premium';
import type { ItemRun } from '../types';

const show = { resource: ['job'], operation: ['get'] };

const TOOL_DESCRIPTION =
	`Get one Upwork job in full by its uid (a string of digits from a search result): the whole description, screening questions, budget, duration, connects to apply, what it asks of a freelancer, and the client's profile and hiring stats. Costs ${formatUsd(PRICE_MICROCENTS.get_job)} a call, so call it only for jobs worth a closer look. An unknown uid is refused as not found.`;

export const description: INodeProperties[] = [
	toolDescriptionProperty(show, TOOL_DESCRIPTION),
	jobUidField(show),
	{
		displayName: 'Include Client History',
		name: 'includeClientHistory',
		type: 'boolean',
		default: false,
		displayOptions: { show },
		description: `Whether to add the client's work history and feedback ("clientHistory"). Needs a plan with the premium addon (${plansWithPremiumAddon('or')}).`,
	},
];

/** What one item sends: its get_job body, and how to shape the answer. */
export interface GetJobRequest {
	body: IDataObject;
	simplify: boolean;
}

export function prepare(this: IExecuteFunctions, itemIndex: number): GetJobRequest {
	const jobUid = readJobUid.call(this, itemIndex);
	const withClientHistory = this.getNodeParameter('includeClientHistory', itemIndex, false) as boolean;
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	return { body: withClientHistory ? { jobUid, withClientHistory } : { jobUid }, simplify };
}

export async function send(this: IExecuteFunctions, run: ItemRun, request: GetJobRequest): Promise<INodeExecutionData[]> {
	const { itemIndex, options } = run;
	const outcome = await callPremium<IDataObject>(run, 'get_job', request.body);
	if ('declined' in outcome) return outcome.declined;
	const { data, usage } = outcome.result;
	let json = request.simplify ? simplifyJobDetails(data) : data;
	if (request.simplify && data.clientHistory !== undefined) json = { ...json, clientHistory: data.clientHistory };
	return [{ json: withUsage(json, options.includeUsage ? usage : undefined), pairedItem: { item: itemIndex } }];
}
