import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { withUsage } from '../../output';
import { jobUidField } from '../common/fields';
import { readJobUid } from '../common/jobUid';
import { callPremium } from '../common/premium';
import type { ItemRun } from '../types';

export const description: INodeProperties[] = [jobUidField({ resource: ['client'], operation: ['getHistory'] })];

export async function execute(this: IExecuteFunctions, run: ItemRun): Promise<INodeExecutionData[]> {
	const { itemIndex, options } = run;
	const jobUid = readJobUid.call(this, itemIndex);
	const outcome = await callPremium(run, 'get_client_history', { jobUid });
	if ('declined' in outcome) return outcome.declined;
	const { data, usage } = outcome.result;
	return [{ json: withUsage(data, options.includeUsage ? usage : undefined), pairedItem: { item: itemIndex } }];
}
