import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { MAX_ROWS_PER_CALL, additionalFiltersOption } from '../../filters';
import { includeUsageOption } from '../../output';
import {
	DEFAULT_MAX_RETRIES,
		DEFAULT_MAX_RETRY_WAIT_SECONDS,
	MAX_RETRIES_CEILING,
	REQUEST_TIMEOUT_SECONDS,
} from '../../transport/tunables';
import { numberOption } from '../../numberOption';
import { MICROCENTS_PER_USD, PRICE_MICROCENTS, formatUsd } from '../../service/pricing';
import { SERVICE_PLANS, minIntervalMsFor, plansWithPremiumAddon } from '../../service/plans';
import { RUNWAY_WARN_DAYS, warnBelowMicrocents } from '../../service/runway';
import type { ItemOptions } from '../types';

/** What to do on a 403 addon_forbidden, shown where the operation can need the premium addon. */
function onPremiumNotIncluded(show: NonNullable<IDisplayOptions['show']>): INodeProperties {
	return {
		displayName: 'On Premium Not Included',
		name: 'onPremiumNotIncluded',
		type: 'options',
		displayOptions: { show },
		default: 'error',
		description: 'What to do when the plan lacks the premium addon this operation needs (403)',
		options: [
			{ name: 'Stop Workflow', value: 'error', description: 'Stop with a message that names the addon; with "On Error" set to continue, output that message as an item' },
			{ name: 'Pass Item Through', value: 'passThrough', description: 'Output the input item unchanged, with a note in "jobSearchNote"' },
			{ name: 'Skip Item', value: 'skip', description: 'Output nothing for this item' },
		],
	};
}

/** The "Options" collection shared by every operation. */
export const optionsDescription: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		additionalFiltersOption({ show: { '/operation': ['search'] } }),
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			default: 1,
			typeOptions: { minValue: 1, maxValue: 20, numberPrecision: 0 },
			description:
				`How many input items are sent to the service at the same time. Read from the first item. Keep it low on the ${SERVICE_PLANS.free.title} plan (${SERVICE_PLANS.free.requestsPerMinute} requests a minute).`,
		},
		{
			displayName: 'Include Client History',
			name: 'includeClientHistory',
			type: 'boolean',
			default: false,
			displayOptions: { show: { '/operation': ['get'] } },
			description: `Whether to add the client's work history and feedback ("clientHistory"). Needs a plan with the premium addon (${plansWithPremiumAddon('or')}).`,
		},
		includeUsageOption('call'),
		{
			displayName: 'Max Credit per Execution (USD)',
			name: 'maxCreditUsd',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, numberPrecision: 4 },
			description:
				`Stop before a request that could take this execution past this amount. A search counts as Limit × ${formatUsd(PRICE_MICROCENTS.search_jobs)}; Return All asks for pages no bigger than the cap allows (up to ${MAX_ROWS_PER_CALL.toLocaleString('en-US')} jobs) and checks each before sending it. 0 means no cap. Read from the first item.`,
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			default: DEFAULT_MAX_RETRIES,
			typeOptions: { minValue: 0, maxValue: MAX_RETRIES_CEILING, numberPrecision: 0 },
			description:
				'How often one request is retried after a rate limit (429), a fault on the service\'s side (500, 502, 503, 504), a dropped connection or an answer that is not the service\'s. Other refusals are never retried.',
		},
		{
			displayName: 'Max Retry Wait (Seconds)',
			name: 'maxRetryWaitSeconds',
			type: 'number',
			default: DEFAULT_MAX_RETRY_WAIT_SECONDS,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			description:
				'The longest one request may spend waiting between retries. When the service asks to wait longer, the node fails and says how long it asked for.',
		},
		{
			displayName: 'Min Interval Between Requests (Ms)',
			name: 'minIntervalMs',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, numberPrecision: 0 },
			description:
				`Space requests at least this far apart, so many input items stay under the rate limit (${minIntervalMsFor('free')} keeps a ${SERVICE_PLANS.free.title} key at ${SERVICE_PLANS.free.requestsPerMinute} a minute). Read from the first item.`,
		},
		// Twice, under one name, as n8n allows for options shown under different conditions: the client
		// operations always need the addon, Get Job only with client history. (A hide rule cannot say
		// it: n8n fills in the hidden Include Client History's default, false, for the client operations.)
		onPremiumNotIncluded({ '/operation': ['getActivity', 'getHistory'] }),
		onPremiumNotIncluded({ '/operation': ['get'], includeClientHistory: [true] }),
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			displayOptions: { show: { '/operation': ['search'] } },
			default: 'perJob',
			options: [
				{ name: 'One Item per Job', value: 'perJob' },
				{ name: 'One Item With the Whole Response', value: 'wholeResponse', description: 'The jobs in a "jobs" list, plus "total" (all matches, before Limit)' },
			],
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			default: REQUEST_TIMEOUT_SECONDS,
			typeOptions: { minValue: 1, numberPrecision: 0 },
			description:
				'The longest one request may take, from sending it to the last byte of the answer. A request that times out is not retried: the service may have done (and billed) the work.',
		},
		{
			displayName: 'Warn Below Credit (USD)',
			name: 'warnBelowCreditUsd',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			description:
				`Show a warning in the output panel when the account's credit left is below this amount. The node always warns when it would last less than ${RUNWAY_WARN_DAYS} days at this workflow's pace, or not pay for another run like this one; 0 adds no amount of your own. Read from the first item.`,
		},
	],
};

function raw(this: IExecuteFunctions, itemIndex: number): IDataObject {
	return this.getNodeParameter('options', itemIndex, {}) as IDataObject;
}

export function itemOptions(this: IExecuteFunctions, itemIndex: number): ItemOptions & {
	maxRetries: number;
	maxRetryWaitMs: number;
	timeoutMs: number;
} {
	const o = raw.call(this, itemIndex);
	return {
		output: o.output === 'wholeResponse' ? 'wholeResponse' : 'perJob',
		includeUsage: o.includeUsage === true,
		onPremiumNotIncluded: (o.onPremiumNotIncluded as ItemOptions['onPremiumNotIncluded']) ?? 'error',
		maxRetries: Math.min(MAX_RETRIES_CEILING, Math.max(0, Math.floor(numberOption(o.maxRetries, DEFAULT_MAX_RETRIES)))),
		maxRetryWaitMs: Math.max(0, numberOption(o.maxRetryWaitSeconds, DEFAULT_MAX_RETRY_WAIT_SECONDS) * 1000),
		timeoutMs: Math.max(1, numberOption(o.timeoutSeconds, REQUEST_TIMEOUT_SECONDS) * 1000),
	};
}

/** Settings that bound the whole execution, so they are read once, from the first item. */
export interface ExecutionSettings {
	concurrency: number;
	minIntervalMs: number;
	maxCreditMicrocents?: number;
	/** "Warn Below Credit": 0 for none. */
	warnBelowMicrocents: number;
}

/** Read once per execution, from the first item whose input could be prepared (item 0 normally). */
export function executionSettings(this: IExecuteFunctions, itemIndex: number | undefined): ExecutionSettings {
	if (itemIndex === undefined) return { concurrency: 1, minIntervalMs: 0, warnBelowMicrocents: 0 };
	const o = raw.call(this, itemIndex);
	const maxCreditUsd = numberOption(o.maxCreditUsd, 0);
	return {
		concurrency: Math.max(1, Math.floor(numberOption(o.concurrency, 1))),
		minIntervalMs: Math.max(0, numberOption(o.minIntervalMs, 0)),
		maxCreditMicrocents: maxCreditUsd > 0 ? Math.round(maxCreditUsd * MICROCENTS_PER_USD) : undefined,
		warnBelowMicrocents: warnBelowMicrocents(numberOption(o.warnBelowCreditUsd, 0)),
	};
}
