import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { SERVICE_PLANS, minIntervalMsFor, plansWithPremiumAddon } from '../service/plans';
import { DEFAULT_MAX_CREDIT_USD, PRICE_MICROCENTS, formatUsd } from '../service/pricing';
import { RUNWAY_WARN_DAYS } from '../service/runway';
import {
	DEFAULT_MAX_RETRIES,
	DEFAULT_MAX_RETRY_WAIT_SECONDS,
	MAX_RETRIES_CEILING,
	REQUEST_TIMEOUT_SECONDS,
} from '../transport/tunables';
import * as client from './client';
import {
	additionalFiltersOption,
	includeUsageOption,
	jobUidField,
	simplifyProperty,
	toolDescriptionProperty,
	toolOutputProperties,
	updateDisplayOptions,
} from './common.descriptions';
import type { Operation } from './common/types';
import * as job from './job';
import { router } from './router';

// The Job Search node's fields, in the order the editor shows them. Each operation declares its
// own fields; this is where they, and the fields several operations share, are placed.

/** What to do on a 403 addon_forbidden, shown where the operation can need the premium addon. */
function onPremiumNotIncluded(): INodeProperties {
	return {
		displayName: 'On Premium Not Included',
		name: 'onPremiumNotIncluded',
		type: 'options',
		default: 'error',
		description: 'What to do when the plan lacks the premium addon this operation needs (403)',
		options: [
			{ name: 'Stop Workflow', value: 'error', description: 'Stop with a message that names the addon; with "On Error" set to continue, output that message as an item' },
			{ name: 'Pass Item Through', value: 'passThrough', description: 'Output the input item unchanged, with a note in "jobSearchNote"' },
			{ name: 'Skip Item', value: 'skip', description: 'Output nothing for this item' },
		],
	};
}

/** The "Options" collection shared by every operation, each option shown where it applies. */
const optionsCollection: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		...updateDisplayOptions({ show: { '/operation': ['search'] } }, [additionalFiltersOption()]),
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
			default: DEFAULT_MAX_CREDIT_USD,
			typeOptions: { minValue: 0, numberPrecision: 4 },
			description:
				`The most one execution may spend. A run that could cost more is refused before anything is sent: each search counts as Limit × ${formatUsd(PRICE_MICROCENTS.search_jobs)}, each lookup at its price. Return All first reads one job to count the matches, and goes on only if they fit. 0 means no cap. Read from the first item.`,
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
				`Space requests at least this far apart, so many input items stay under the rate limit (${minIntervalMsFor('free')} keeps a ${SERVICE_PLANS.free.title} key under its ${SERVICE_PLANS.free.requestsPerMinute} a minute). Read from the first item.`,
		},
		// Twice, under one name, as n8n allows for options shown under different conditions: the client
		// operations always need the addon, Get Job only with client history. (A hide rule cannot say
		// it: n8n fills in the hidden Include Client History's default, false, for the client operations.)
		...updateDisplayOptions({ show: { '/operation': ['getActivity', 'getHistory'] } }, [onPremiumNotIncluded()]),
		...updateDisplayOptions({ show: { '/operation': ['get'], includeClientHistory: [true] } }, [onPremiumNotIncluded()]),
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


/** A resource's Operation field, shown when that resource is chosen. */
function operationField(resource: string, options: INodePropertyOptions[], defaultOperation: string): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultOperation,
	};
}

/** An operation's fields, shown for it alone: its Tool Description, its Job UID, then its own fields. */
function operationProperties(resource: string, name: string, operation: Operation<unknown>): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: [resource], operation: [name] } }, [
		toolDescriptionProperty(operation.toolDescription),
		...(operation.keyedByJobUid ? [jobUidField()] : []),
		...(operation.properties ?? []),
	]);
}

export const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Client', value: 'client' },
			{ name: 'Job', value: 'job' },
		],
		default: 'job',
	},
	operationField('job', job.operations, job.defaultOperation),
	operationField('client', client.operations, client.defaultOperation),
	...Object.entries(router).flatMap(([resource, operations]) =>
		Object.entries(operations as Record<string, Operation<unknown>>).flatMap(([name, operation]) => operationProperties(resource, name, operation)),
	),
	// After the operations' own fields, so that Job UID (required) comes first. An AI Agent's tool
	// call gets Output (Simplified, Raw, Selected Fields) in place of Simplify.
	...updateDisplayOptions({ show: { resource: ['job'] } }, [
		...updateDisplayOptions({ show: { '@tool': [false] } }, [simplifyProperty()]),
		...toolOutputProperties(),
	]),
	optionsCollection,
];
