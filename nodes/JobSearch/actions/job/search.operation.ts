import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	ADDITIONAL_FILTERS,
	MAX_ROWS_PER_CALL,
	additionalFiltersProperty,
	searchFiltersFromParameters,
	toNodeProperties,
} from '../../filters';
import { simplifyJob, withUsage } from '../../output';
import { PRICE_MICROCENTS, formatUsd } from '../../pricing';
import { operationError } from '../../transport/errors';
import type { ItemRun } from '../types';

const show = { resource: ['job'], operation: ['search'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		displayOptions: { show },
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: `Return All asks for the service maximum of ${MAX_ROWS_PER_CALL.toLocaleString('en-US')} rows per item, and every returned row is billed (${formatUsd(PRICE_MICROCENTS.search_jobs)} each, up to ${formatUsd(MAX_ROWS_PER_CALL * PRICE_MICROCENTS.search_jobs)}). Prefer a Limit.`,
		name: 'returnAllNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show, returnAll: [true] } },
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1, maxValue: MAX_ROWS_PER_CALL },
		displayOptions: { show: { ...show, returnAll: [false] } },
		description: 'Max number of results to return',
	},
	...toNodeProperties({ omit: ['limit'], displayOptions: { show } }),
	additionalFiltersProperty({ show }),
];

/** The search_jobs body of one item, checked before anything is sent. */
export function searchBody(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? MAX_ROWS_PER_CALL : (this.getNodeParameter('limit', itemIndex, 50) as number);
	const { body, issues } = searchFiltersFromParameters(
		(name) => this.getNodeParameter(name, itemIndex, name === ADDITIONAL_FILTERS ? '{}' : {}),
		{ limit },
	);
	if (issues.length > 0) {
		throw operationError(this.getNode(), 'invalid_input', `${issues[0].message} [item ${itemIndex}]`, {
			itemIndex,
			description:
				issues.length > 1
					? issues.map((i) => i.message).join('\n')
					: 'Fix the field in the node, or in Additional Filters (JSON) if the key came from there. Nothing was sent.',
		});
	}
	return body as IDataObject;
}

interface SearchData {
	jobs?: IDataObject[];
	total?: number;
}

export async function execute(this: IExecuteFunctions, run: ItemRun): Promise<INodeExecutionData[]> {
	const { itemIndex, options } = run;
	const body = searchBody.call(this, itemIndex);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const { data, usage } = await run.call<SearchData>('search_jobs', body);
	const jobs = (data.jobs ?? []).map((job) => (simplify ? simplifyJob(job) : job));
	const usageToShow = options.includeUsage ? usage : undefined;
	const pairedItem = { item: itemIndex };
	if (options.output === 'wholeResponse') {
		return [{ json: withUsage({ jobs, total: data.total ?? jobs.length }, usageToShow), pairedItem }];
	}
	return jobs.map((job) => ({ json: withUsage(job, usageToShow), pairedItem }));
}
