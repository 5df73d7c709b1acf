import type { INodeProperties } from 'n8n-workflow';

import { outputOption } from './digest';
import { MAX_ROWS_PER_CALL, legacyAdditionalFiltersProperty, toNodeProperties } from '../filters';
import { additionalFiltersOption, includeUsageOption, simplifyProperty } from '../actions/common.descriptions';
import { PRICE_MICROCENTS, formatUsd } from '../service/pricing';
import {
	CHECK_MIN_ROWS,
	DEFAULT_MAX_JOBS_PER_POLL,
	DEFAULT_LATE_WINDOW_MINUTES,
	DEFAULT_ROWS_PER_REQUEST,
	MAX_LATE_WINDOW_MINUTES,
	SWEEP_EVERY_MS,
} from './tunables';

const MINUTE_MS = 60_000;

/** "15 minutes", "hour", "2 hours": a span of minutes as the notice says it after "every" or "the last". */
function minutes(n: number): string {
	if (n === 60) return 'hour';
	if (n % 60 === 0) return `${n / 60} hours`;
	return n === 1 ? 'minute' : `${n} minutes`;
}

/** The trigger owns the time window and the row count, so these filters are not offered. */
export const TRIGGER_OWNED_KEYS = ['limit', 'searchPeriod', 'fromDate', 'toDate'] as const;

export const properties: INodeProperties[] = [
	{
		displayName: `Cost: about one row (${formatUsd(PRICE_MICROCENTS.search_jobs)}) per new job, at any Poll Times: asking for jobs where none are new costs nothing, so Every Minute costs about what Every Hour does. Each job is sent once; one the index shows late, within about ${minutes(SWEEP_EVERY_MS / MINUTE_MS)}. Activation reads, and pays for once, the matching jobs of the last ${minutes(DEFAULT_LATE_WINDOW_MINUTES)} (Late Window), and sends none of them.`,
		name: 'creditNotice',
		type: 'notice',
		default: '',
	},
	...toNodeProperties({ omit: TRIGGER_OWNED_KEYS }),
	legacyAdditionalFiltersProperty(),
	simplifyProperty(),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			additionalFiltersOption(),
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
				displayName: 'Late Window (Minutes)',
				name: 'overlapMinutes',
				type: 'number',
				default: DEFAULT_LATE_WINDOW_MINUTES,
				typeOptions: { minValue: 1, maxValue: MAX_LATE_WINDOW_MINUTES, numberPrecision: 0 },
				description:
					'How long after its posting time a job may still show up in the index for the first time (it refreshes every 5 to 15 minutes, stragglers later). Asking this window again for late jobs costs requests, not rows; activation reads it once.',
			},
			{
				displayName: 'Max Jobs per Poll',
				name: 'maxJobsPerPoll',
				type: 'number',
				default: DEFAULT_MAX_JOBS_PER_POLL,
				typeOptions: { minValue: 1, numberPrecision: 0 },
				description:
					`The most rows one poll reads, and so pays for. What is left is read by the next polls, oldest part first: nothing is skipped. (The silent read of the Late Window on activation is not bound by it, and a late-job sweep that fell behind may read ${CHECK_MIN_ROWS} rows more.)`,
			},
			outputOption,
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
