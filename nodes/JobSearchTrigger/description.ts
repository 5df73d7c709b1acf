import type { INodeProperties } from 'n8n-workflow';

import { MAX_ROWS_PER_CALL, additionalFiltersProperty, toNodeProperties } from '../JobSearch/filters';
import { includeUsageOption, simplifyProperty } from '../JobSearch/output';
import {
	DEFAULT_MAX_JOBS_PER_POLL,
	DEFAULT_OVERLAP_MINUTES,
	DEFAULT_ROWS_PER_REQUEST,
	MAX_OVERLAP_MINUTES,
} from './tunables';

/** The trigger owns the time window and the row count, so these filters are not offered. */
export const TRIGGER_OWNED_KEYS = ['limit', 'searchPeriod', 'fromDate', 'toDate'] as const;

export const properties: INodeProperties[] = [
	{
		displayName:
			'Each poll pays only for jobs posted since the last one, plus the Overlap Window read again to catch jobs the index shows late. Already-sent jobs are dropped, never sent twice.',
		name: 'creditNotice',
		type: 'notice',
		default: '',
	},
	...toNodeProperties({ omit: TRIGGER_OWNED_KEYS }),
	additionalFiltersProperty(),
	simplifyProperty(),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Emit on First Poll (Hours)',
				name: 'firstPollHours',
				type: 'number',
				default: 0,
				typeOptions: { minValue: 0, maxValue: 720, numberPrecision: 0 },
				description:
					'On activation, also send the jobs posted in this many hours before it (billed like any other row). 0 sends nothing on the first poll: alerts start from activation.',
			},
			includeUsageOption('poll'),
			{
				displayName: 'Max Jobs per Poll',
				name: 'maxJobsPerPoll',
				type: 'number',
				default: DEFAULT_MAX_JOBS_PER_POLL,
				typeOptions: { minValue: 1, numberPrecision: 0 },
				description:
					'The most rows one poll reads, and so pays for (overlap re-reads included). What is left is read by the next polls, oldest part kept in order: nothing is skipped.',
			},
			{
				displayName: 'Overlap Window (Minutes)',
				name: 'overlapMinutes',
				type: 'number',
				default: DEFAULT_OVERLAP_MINUTES,
				typeOptions: { minValue: 1, maxValue: MAX_OVERLAP_MINUTES, numberPrecision: 0 },
				description:
					'How far back each poll looks again for jobs the index shows late (it refreshes every 5 to 15 minutes). Larger misses nothing even with clock drift; each poll pays again for the jobs in this window.',
			},
			{
				displayName: 'Rows per Request',
				name: 'rowsPerRequest',
				type: 'number',
				default: DEFAULT_ROWS_PER_REQUEST,
				typeOptions: { minValue: 1, maxValue: MAX_ROWS_PER_CALL, numberPrecision: 0 },
				description:
					'Page size of each search call. Rows are billed one by one, so this changes only how many requests a busy poll makes (each counts toward the rate limit).',
			},
		],
	},
];
