import type { IDataObject } from 'n8n-workflow';

import { FILTER_BY_KEY } from '../filters';
import { obj } from './objects';

/** A filter option's label as words in a sentence: "More Than 6 Months" → "More than 6 months". */
function asWords(label: string): string {
	const lower = label.toLowerCase();
	return lower.charAt(0).toUpperCase() + lower.slice(1);
}

/** An enum the service sends (MORE_THAN_SIX_MONTHS) in the words the filter of the same values shows; undefined when unspecified. */
function enumWords(filterKey: string, value: unknown): string | undefined {
	if (typeof value !== 'string' || value === '' || value === 'UNSPECIFIED') return undefined;
	const spec = FILTER_BY_KEY.get(filterKey);
	const option = spec && 'options' in spec ? spec.options.find((o) => o.value === value) : undefined;
	return option ? asWords(option.name) : value;
}

/**
 * "1 to 3 months, more than 30 hours a week": how long a job runs and how much of the week it
 * takes, in the words the Job Durations and Hourly Workloads filters use. Undefined when the job
 * says neither.
 */
export function durationOf(job: IDataObject): string | undefined {
	const parts = [enumWords('budget.jobDurations', job.duration), enumWords('budget.hourlyWorkloads', job.workload)].filter(
		(part): part is string => part !== undefined,
	);
	if (parts.length === 0) return undefined;
	return [parts[0], ...parts.slice(1).map((part) => part.charAt(0).toLowerCase() + part.slice(1))].join(', ');
}

/**
 * "US, payment verified, $12,340 spent": the client facts a search row gives (clientCountry,
 * clientPaymentVerified, clientTotalSpent), as one string. Undefined when the job has none.
 */
export function clientOf(job: IDataObject): string | undefined {
	const client = obj(job.client);
	const spent = obj(client.stats).totalSpent;
	const parts = [
		typeof client.countryCode === 'string' && client.countryCode !== '' ? client.countryCode : undefined,
		typeof client.paymentMethodVerified === 'boolean' ? (client.paymentMethodVerified ? 'payment verified' : 'payment not verified') : undefined,
		typeof spent === 'number' ? `$${Math.round(spent).toLocaleString('en-US')} spent` : undefined,
	].filter((part): part is string => part !== undefined);
	return parts.length > 0 ? parts.join(', ') : undefined;
}
