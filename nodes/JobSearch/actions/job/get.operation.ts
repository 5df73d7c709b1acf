import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { simplifyJob, withUsage } from '../../output';
import { jobUidField } from '../common/fields';
import { readJobUid } from '../common/jobUid';
import { callPremium } from '../common/premium';
import type { ItemRun } from '../types';

const show = { resource: ['job'], operation: ['get'] };

export const description: INodeProperties[] = [
	jobUidField(show),
	{
		displayName: 'Include Client History',
		name: 'includeClientHistory',
		type: 'boolean',
		default: false,
		displayOptions: { show },
		description:
			"Whether to add the client's work history and feedback (\"clientHistory\"). Needs a plan with the premium addon (Pro or Enterprise).",
	},
];

export async function execute(this: IExecuteFunctions, run: ItemRun): Promise<INodeExecutionData[]> {
	const { itemIndex, options } = run;
	const jobUid = readJobUid.call(this, itemIndex);
	const withClientHistory = this.getNodeParameter('includeClientHistory', itemIndex, false) as boolean;
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const body: IDataObject = withClientHistory ? { jobUid, withClientHistory } : { jobUid };
	const outcome = await callPremium<IDataObject>(run, 'get_job', body);
	if ('declined' in outcome) return outcome.declined;
	const { data, usage } = outcome.result;
	let json = simplify ? simplifyJob(data) : data;
	if (simplify && data.clientHistory !== undefined) json = { ...json, clientHistory: data.clientHistory };
	return [{ json: withUsage(json, options.includeUsage ? usage : undefined), pairedItem: { item: itemIndex } }];
}
