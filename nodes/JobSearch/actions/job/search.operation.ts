import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	GROUP_COLLECTIONS,
	MAX_ROWS_PER_CALL,
	toNodeProperties,
	toRequestBody,
	validate,
	type FilterCollections,
} from '../../filters';
import { simplifyJob, withUsage } from '../../output';
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
		displayName: `Return All asks for the service maximum of ${MAX_ROWS_PER_CALL.toLocaleString('en-US')} rows per item, and every returned row is billed ($0.00579 each, up to $57.90). Prefer a Limit.`,
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
	{
		displayName: 'Additional Filters (JSON)',
		name: 'additionalFilters',
		type: 'json',
		default: '{}',
		displayOptions: { show },
		description:
			'Filter keys this node has no field for yet, as flat wire keys, e.g. {"budget.hourlyRate.min": "40"}. Merged last, so they win over the fields above. The service refuses unknown keys.',
	},
];

function additionalFilters(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const raw = this.getNodeParameter('additionalFilters', itemIndex, '{}') as unknown;
	let value: unknown = raw;
	if (typeof raw === 'string') {
		if (raw.trim() === '') return {};
		try {
			value = JSON.parse(raw);
		} catch (error) {
			throw operationError(
				this.getNode(),
				'invalid_input',
				`Additional Filters (JSON) is not valid JSON: ${(error as Error).message} [item ${itemIndex}]`,
				{ itemIndex, description: 'Write one JSON object of flat keys, e.g. {"searchPeriod": "24h"}.' },
			);
		}
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw operationError(
			this.getNode(),
			'invalid_input',
			`Additional Filters (JSON) must be a JSON object [item ${itemIndex}]`,
			{ itemIndex, description: 'Write one JSON object of flat keys, e.g. {"searchPeriod": "24h"}.' },
		);
	}
	return value as IDataObject;
}

/** The search_jobs body of one item, checked before anything is sent. */
export function searchBody(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? MAX_ROWS_PER_CALL : (this.getNodeParameter('limit', itemIndex, 50) as number);
	const collections: FilterCollections = {};
	for (const { name } of Object.values(GROUP_COLLECTIONS)) {
		collections[name] = this.getNodeParameter(name, itemIndex, {}) as IDataObject;
	}
	const body = toRequestBody(collections, { limit, ...additionalFilters.call(this, itemIndex) });
	const issues = validate(body);
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
