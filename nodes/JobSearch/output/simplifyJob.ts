import type { IDataObject } from 'n8n-workflow';

import { budgetOf } from './budget';
import { obj } from './objects';
import { clientOf, durationOf } from './words';

/** n8n's guideline for Simplify: at most this many fields, flat, the most used first. */
export const SIMPLIFIED_MAX_FIELDS = 10;

/**
 * Every key of `shape`, with null where the job has no value: each item has the same columns, so
 * a sheet row or a downstream mapping does not shift from one job to the next.
 */
function complete(shape: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, value ?? null]));
}

/**
 * The ten fields a person reads to decide whether a job is worth a look (a Slack message, a sheet
 * row, an AI summary), flat and most used first: which job, what it pays, what it asks for, and
 * who the client is. Always the same keys, null where the job has no value; Simplify off gives
 * the whole record (budget bounds as numbers, client stats, connects to apply, …).
 */
export function simplifyJob(job: IDataObject): IDataObject {
	const client = obj(job.client);
	return complete({
		uid: job.uid,
		title: job.title,
		url: job.externalLink,
		createdAt: job.createdAt,
		budget: budgetOf(job),
		description: job.description,
		skills: job.skills,
		clientCountry: client.countryCode,
		clientPaymentVerified: client.paymentMethodVerified,
		clientTotalSpent: obj(client.stats).totalSpent,
	});
}

/**
 * Get Job's simplified output, in words a person reads before applying: what a search row leaves
 * out (the whole description, screening questions, how long the job runs and how much of the week,
 * connects to apply), with the job's identity, budget and the client facts the search row has.
 * Nine fields, so that the client history, when asked for, is the tenth. Same keys for every job.
 */
export function simplifyJobDetails(job: IDataObject): IDataObject {
	return complete({
		uid: job.uid,
		title: job.title,
		url: job.externalLink,
		budget: budgetOf(job),
		duration: durationOf(job),
		applicationCost: job.applicationCost,
		client: clientOf(job),
		description: job.description,
		questions: job.questions,
	});
}
