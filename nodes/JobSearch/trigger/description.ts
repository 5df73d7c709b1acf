import type { INodeProperties } from 'n8n-workflow';

import { outputOption } from './digest';
import { MAX_ROWS_PER_CALL, toNodeProperties } from '../filters';
import { additionalFiltersOption, includeUsageOption, simplifyProperty } from '../actions/common.descriptions';
import { PRICE_MICROCENTS, formatUsd } from '../service/pricing';
import { MEASURED } from './measured';
import {
	CHECK_MIN_ROWS,
	DEFAULT_MAX_JOBS_PER_POLL,
	DEFAULT_LATE_WINDOW_MINUTES,
	DEFAULT_REQUESTS_PER_MINUTE,
	DEFAULT_ROWS_PER_REQUEST,
	MAX_LATE_WINDOW_MINUTES,
	PASS_EVERY_MS,
	WINDOW_REQUEST_CAP,
} from './tunables';
import { SERVICE_PLANS } from '../service/plans';

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
		displayName: `Cost, as measured: up to ${MEASURED.batchRowsPerJob.toFixed(2)} rows (${formatUsd(Math.round(MEASURED.batchRowsPerJob * PRICE_MICROCENTS.search_jobs))}) per new job where the index shows jobs in batches, up to ${MEASURED.outOfOrderRowsPerJob.toFixed(2)} where it shows them out of order (up to ${MEASURED.upToPostingsPerHour} matching postings an hour; busier searches up to ${MEASURED.busyRowsPerJob.toFixed(1)}, where some of their jobs come an hour late); asking where nothing is new costs nothing. Each job is sent once; one the index shows late, within about ${minutes(PASS_EVERY_MS / MINUTE_MS)} where the requests allow. Activation reads, and pays for once, the matching jobs of the last ${minutes(DEFAULT_LATE_WINDOW_MINUTES)} (Late Window), and sends none of them.`,
		name: 'creditNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Watch',
		name: 'watch',
		type: 'options',
		required: true,
		default: 'oneSearch',
		options: [
			{ name: 'One Search', value: 'oneSearch', description: 'The filters below' },
			{
				name: 'Several Searches',
				value: 'severalSearches',
				description: 'Named searches, each with its own filters: each job is sent once, with the searches that found it',
			},
		],
		description: 'Whether to watch one search or several named ones (one per skill, client profile or team member)',
	},
	...toNodeProperties({ omit: TRIGGER_OWNED_KEYS }).map((property) => ({ ...property, displayOptions: { show: { watch: ['oneSearch'] } } })),
	{
		displayName: 'Searches',
		name: 'searches',
		type: 'fixedCollection',
		placeholder: 'Add Search',
		default: {},
		typeOptions: { multipleValues: true, sortable: true },
		displayOptions: { show: { watch: ['severalSearches'] } },
		description:
			'Each job is sent once, with "search" (the first of these that found it, in this order) and "searches" (all that did), so a Switch node can route it. All searches share the requests and the credit of this trigger.',
		options: [
			{
				displayName: 'Search',
				name: 'search',
				// Sorted by label, as n8n's lint rule asks (test/filters checks the rendered description);
				// "Alert Name" sorts before every filter group, so a user adding a search sees it first.
				values: [
					{
						displayName: 'Alert Name',
						name: 'name',
						type: 'string',
						default: '',
						required: true,
						placeholder: 'e.g. Python scraping',
						description: 'The name of this search: items carry it in "search" and "searches", so a Switch can route on it',
					} as INodeProperties,
					...toNodeProperties({ omit: TRIGGER_OWNED_KEYS }),
				].sort((a, b) => a.displayName.localeCompare(b.displayName)),
			},
		],
	},
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
				name: 'lateWindowMinutes',
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
					`How many new jobs one poll reads at most, and so pays for; its looks for jobs the index shows late may read as many rows again, and a count that finds a late job ${CHECK_MIN_ROWS} more. What is left is read by the next polls, oldest part first: nothing is skipped. (The silent read of the Late Window on activation is not bound by it.)`,
			},
			outputOption,
			{
				displayName: 'Requests per Minute',
				name: 'requestsPerMinute',
				type: 'number',
				default: DEFAULT_REQUESTS_PER_MINUTE,
				typeOptions: { minValue: 0.5, maxValue: SERVICE_PLANS.enterprise.requestsPerMinute, numberPrecision: 1 },
				description: `How many requests this trigger spends a minute on average, of the key's limit (${SERVICE_PLANS.free.title} ${SERVICE_PLANS.free.requestsPerMinute}, ${SERVICE_PLANS.pro.title} ${SERVICE_PLANS.pro.requestsPerMinute} a minute). It never sends more than ${WINDOW_REQUEST_CAP} in one minute unless this is higher, and slows down by itself when the service says the key is busy. Fewer requests cost a few more rows.`,
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
