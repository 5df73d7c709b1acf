import type { IDataObject } from 'n8n-workflow';

import { budgetOf } from './budget';
import { obj } from './objects';

/** How much of a description a model reads per job in a search; Get Job gives the rest. */
export const TOOL_DESCRIPTION_CHARS = 300;

/** Jobs one call of the model may return unless the user raises it: each row is billed. */
export const DEFAULT_TOOL_MAX_JOBS = 20;

function shortened(text: unknown, max: number): string | undefined {
	if (typeof text !== 'string') return undefined;
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** "2026-11-22T10:00:00.000Z" as "2026-11-22T10:00:00Z": a model needs no milliseconds. */
function toSeconds(time: IDataObject[string]): IDataObject[string] {
	return typeof time === 'string' ? time.replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d+Z$/, '$1Z') : time;
}

function present(record: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(record).filter(([, v]) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)),
	);
}

/**
 * A job as a model needs it to judge the job and decide on a next step, in few characters: what
 * the job is and its link (the model is asked for links, and guessing one is worse than none),
 * what it pays, what it costs to apply, who the client is, and the start of the description (a
 * "…" at its end means "call Get Job with this uid for the rest"). Keys without a value are left
 * out: a model reads every character and needs no stable columns. The category is left out too:
 * the title and skills say more, in the characters the link takes.
 */
export function compactJob(job: IDataObject, descriptionChars = TOOL_DESCRIPTION_CHARS): IDataObject {
	const client = obj(job.client);
	const stats = obj(client.stats);
	return present({
		uid: job.uid,
		title: job.title,
		url: job.externalLink,
		postedAt: toSeconds(job.createdAt),
		budget: budgetOf(job),
		skills: job.skills,
		experienceLevel: obj(job.vendor).experienceLevel,
		connectsToApply: job.applicationCost,
		client: present({
			country: client.countryCode,
			spentUsd: stats.totalSpent,
			hireRatePercent: stats.hireRate,
			rating: stats.feedbackRate,
			paymentVerified: client.paymentMethodVerified,
		}),
		description: shortened(job.description, descriptionChars),
	});
}

/** What an AI Agent's tool call returns per job: n8n's three choices for a tool's output. */
export type ToolOutput = 'simplified' | 'raw' | 'selected';

export interface ToolOutputChoice {
	output: ToolOutput;
	/** Selected Fields only: the field paths to keep, uid aside (it is always kept). */
	fields: string[];
}

/** "title, client.countryCode title" → ["title", "client.countryCode"]: uid aside, each once. */
export function parseFieldList(text: unknown): string[] {
	const names = typeof text === 'string' ? text.split(/[\s,]+/) : [];
	return [...new Set(names.filter((name) => name !== '' && name !== 'uid'))];
}

function valueAt(record: IDataObject, path: string): unknown {
	let at: unknown = record;
	for (const key of path.split('.')) {
		const container = obj(at);
		if (!Object.prototype.hasOwnProperty.call(container, key)) return undefined;
		at = container[key];
	}
	return at;
}

/** The job's uid and the listed fields it has, keyed by the path as written. */
function selectFields(job: IDataObject, fields: readonly string[]): IDataObject {
	const picked: IDataObject = { uid: job.uid };
	for (const path of fields) {
		const value = valueAt(job, path);
		if (value !== undefined) picked[path] = value as IDataObject[string];
	}
	return picked;
}

/** How to shape each job for the tool's caller; `simplified` is the operation's own simplified form. */
export function toolShape(choice: ToolOutputChoice, simplified: (job: IDataObject) => IDataObject): ((job: IDataObject) => IDataObject) | undefined {
	if (choice.output === 'raw') return undefined;
	if (choice.output === 'selected') return (job) => selectFields(job, choice.fields);
	return simplified;
}
