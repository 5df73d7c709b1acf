import type { INodeProperties } from 'n8n-workflow';

import { outputOption } from '../output/digest';
import { toNodeProperties } from '../filters';
import { additionalFiltersOption, includeUsageOption, simplifyProperty } from '../actions/common.descriptions';
import { PRICE_MICROCENTS, formatUsd } from '../service/pricing';
import { MEASURED } from './measured';
import { WINDOW_REQUEST_CAP } from './requests';
import { SERVICE_PLANS } from '../service/plans';
import { INDEX_CLOCK_DOUBT_MS, MINUTE_MS } from './tunables';

/** A measured cost per new job, in dollars. */
const perJob = (rowsPerJob: number) => formatUsd(Math.round(rowsPerJob * PRICE_MICROCENTS.search_jobs));

/** The filter fields in the order of their labels, the same under One Search and Several Searches. */
const filterFields = () => toNodeProperties({ omit: TRIGGER_OWNED_KEYS }).sort((a, b) => a.displayName.localeCompare(b.displayName));

// The options' defaults, shown in their fields and taken by a poll where an option is left unset.

/** The index shows a job 5 to 15 minutes after its createdAt, a straggler up to about 30: an hour leaves room for a slow refresh. */
export const DEFAULT_LATE_WINDOW_MINUTES = 60;

/** An hour of a busy search (1,500 postings) fits in one poll every hour; a poll reads at most this many new jobs (~$14.48). */
export const DEFAULT_MAX_JOBS_PER_POLL = 2_500;

/** Two alert workflows and a Job Search node fit on a Free key (10 requests a minute). */
export const DEFAULT_REQUESTS_PER_MINUTE = 5;

/** "Fetch Test Event" shows this many recent jobs of each search, as the notice says: enough to map fields, cheap to pay for. */
export const MANUAL_SAMPLE_SIZE = 5;

/** The trigger owns the time window and the row count, so these filters are not offered. */
export const TRIGGER_OWNED_KEYS = ['limit', 'searchPeriod', 'fromDate', 'toDate'] as const;

export const properties: INodeProperties[] = [
	{
		displayName: `Cost: about ${perJob(MEASURED.soonRowsPerJob)} per new job for searches of up to ${MEASURED.upToPostingsPerHour} new jobs an hour, up to ${perJob(MEASURED.busyRowsPerJob)} for busier ones; with Delivery set to Lowest Cost, at most ${perJob(MEASURED.lowestCostRowsPerJob)}, an hour later. Each job is sent once. Activation pays once for the matching jobs of the Late Window before it and a quarter of an hour more (${DEFAULT_LATE_WINDOW_MINUTES + INDEX_CLOCK_DOUBT_MS / MINUTE_MS} minutes by default) and sends none of them. Fetch Test Event shows up to ${MANUAL_SAMPLE_SIZE} recent jobs of each search, paid like any other (${perJob(MANUAL_SAMPLE_SIZE)} a search), and changes nothing of the alert.`,
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
	...filterFields().map((property) => ({ ...property, displayOptions: { show: { watch: ['oneSearch'] } } })),
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
				// Sorted by label, as n8n's lint rule asks: "Alert Name" sorts before every filter group.
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
					...filterFields(),
				],
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
				displayName: 'Delivery',
				name: 'delivery',
				type: 'options',
				default: 'asSoonAsSeen',
				options: [
					{
						name: 'As Soon As Seen',
						value: 'asSoonAsSeen',
						description: `Each job at the first check that can see it; a job that shows up in search late comes within about a quarter of an hour. Up to ${perJob(MEASURED.busyRowsPerJob)} per job on busy searches.`,
					},
					{
						name: 'Lowest Cost',
						value: 'lowestCost',
						description: `Each job about an hour after it was posted, once nothing more can show up around it: at most ${perJob(MEASURED.lowestCostRowsPerJob)} per job`,
					},
				],
				description: 'Choose Lowest Cost for digests and busy searches where an hour does not matter',
			},
			{
				displayName: 'Emit on First Poll (Hours)',
				name: 'firstPollHours',
				type: 'number',
				default: 0,
				typeOptions: { minValue: 0, maxValue: 720, numberPrecision: 0 },
				description:
					'Set it to also get, once on activation, the jobs posted in this many hours before it (paid like any other job). 0 starts the alerts from activation. A search added to Searches later starts from when it is added.',
			},
			includeUsageOption('poll'),
			{
				displayName: 'Late Window (Minutes)',
				name: 'lateWindowMinutes',
				type: 'number',
				default: DEFAULT_LATE_WINDOW_MINUTES,
				typeOptions: { minValue: 1, maxValue: 24 * 60, numberPrecision: 0 },
				description:
					'How long after its posting time a job may still appear in search results for the first time (usually 5 to 15 minutes, stragglers up to about half an hour). Raise it only if jobs that appear later than this are missed.',
			},
			{
				displayName: 'Max Jobs per Poll',
				name: 'maxJobsPerPoll',
				type: 'number',
				default: DEFAULT_MAX_JOBS_PER_POLL,
				typeOptions: { minValue: 1, numberPrecision: 0 },
				description:
					'The most new jobs one check pays for (a bulk of postings is then sent over several checks; nothing is skipped). Lower it to cap what one check can spend.',
			},
			outputOption,
			{
				displayName: 'Requests per Minute',
				name: 'requestsPerMinute',
				type: 'number',
				default: DEFAULT_REQUESTS_PER_MINUTE,
				typeOptions: { minValue: 0.5, maxValue: SERVICE_PLANS.enterprise.requestsPerMinute, numberPrecision: 1 },
				description: `How many of the API key's requests (${SERVICE_PLANS.free.title} ${SERVICE_PLANS.free.requestsPerMinute}, ${SERVICE_PLANS.pro.title} ${SERVICE_PLANS.pro.requestsPerMinute} a minute) this trigger uses a minute on average. Lower it when other workflows share the key, raise it on a ${SERVICE_PLANS.pro.title} key. It never sends more than ${WINDOW_REQUEST_CAP} in one minute unless this is higher, and slows down by itself when the service says the key is busy.`,
			},
		],
	},
];
