import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { searchFiltersFromParameters } from '../filters';
import { numberOption } from '../filters/numberOption';
import type { TriggerOutput } from '../output/digest';
import { operationError } from '../transport';
import type { CycleSettings } from './cycle';
import { DEFAULT_LATE_WINDOW_MINUTES, DEFAULT_MAX_JOBS_PER_POLL, DEFAULT_REQUESTS_PER_MINUTE, TRIGGER_OWNED_KEYS } from './description';
import { mergeSearches, type SearchSpec } from './searches';
import { keepsNoActivationPoll, lastScheduledMs, pollTimeMs, pollTimesEntries, shortestIntervalMs } from './pollTime';
import { HOUR_MS, MINUTE_MS, SCHEDULED_POLL_LATE_MS } from './tunables';

/** Everything a poll reads from the node's parameters, read once. */
export interface TriggerSettings {
	/** One search (watch "One Search"), or the named ones, same filters merged. */
	searches: SearchSpec[];
	/** Whether items say which searches found them (watch "Several Searches"). */
	named: boolean;
	simplify: boolean;
	includeUsage: boolean;
	output: TriggerOutput;
	cycle: CycleSettings;
}

function positive(value: unknown, fallback: number): number {
	const n = numberOption(value, fallback);
	return n > 0 ? n : fallback;
}

/** A search's filters, checked before any credit is spent; `label` names the search in the message. */
function filters(this: IPollFunctions, parameter: (name: string) => unknown, label: string): IDataObject {
	const { body, issues } = searchFiltersFromParameters(parameter);
	const owned = TRIGGER_OWNED_KEYS.find((key) => key in body);
	if (owned) {
		// Additional Filters is one option for every search: the message names none.
		throw operationError(this.getNode(), 'invalid_input', `Additional Filters (JSON) sets "${owned}", which the trigger sets itself`, {
			description:
				'Remove it. Each poll asks for the jobs since the previous one; use "Emit on First Poll (Hours)" to also get older jobs once, and "Max Jobs per Poll" to bound a poll.',
		});
	}
	if (issues.length > 0) {
		throw operationError(this.getNode(), 'invalid_input', `${label}${issues[0].message}`, {
			description: issues.map((i) => i.message).join('\n'),
		});
	}
	return body as IDataObject;
}

/** The named searches of watch "Several Searches", each checked. */
function namedSearches(this: IPollFunctions, options: IDataObject): SearchSpec[] {
	const entries = ((this.getNodeParameter('searches', {}) as { search?: IDataObject[] }).search ?? []).filter(Boolean);
	if (entries.length === 0) {
		throw operationError(this.getNode(), 'invalid_input', 'Searches holds no search', {
			description: 'Add a search under Searches (Add Search), give it an Alert Name and its filters, or switch Watch to One Search.',
		});
	}
	const names = entries.map((entry, index) => (typeof entry.name === 'string' && entry.name.trim() !== '' ? entry.name.trim() : `Search ${index + 1}`));
	const twice = names.find((name, index) => names.findIndex((other) => other.toLowerCase() === name.toLowerCase()) !== index);
	if (twice !== undefined) {
		throw operationError(this.getNode(), 'invalid_input', `Two searches are named "${twice}"`, {
			description: 'Give each search its own Alert Name: items carry it in "search" and "searches", so a Switch node can tell them apart.',
		});
	}
	return mergeSearches(
		entries.map((entry, index) => {
			const name = names[index];
			const parameter = (key: string) => (key === 'options' ? options : entry[key]);
			return { name, filters: filters.call(this, parameter, `Search "${name}": `) };
		}),
	);
}

/**
 * n8n 2.41's durable scheduler runs each Poll Times entry's polls on their own, each on the state saved before it: two
 * polling at once would send the same jobs, and how late n8n may start a poll is an instance setting
 * (N8N_SCHEDULER_MISFIRE_GRACE), so no times apart are safe.
 */
function refuseSeveralEntries(this: IPollFunctions): void {
	const count = pollTimesEntries(this).length;
	if (count < 2) return;
	throw operationError(this.getNode(), 'invalid_input', `Poll Times has ${count} entries, and this n8n polls each on its own: new jobs could be sent twice`, {
		description:
			'Every poll fails until Poll Times has one entry. Delete the others, or set Mode to Custom and list every time in Cron Expression, for example 0 9,13,17 * * 1-5 (9:00, 13:00 and 17:00 on weekdays), then save the workflow.',
	});
}

export function readSettings(this: IPollFunctions): TriggerSettings {
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const firstPollHours = numberOption(options.firstPollHours, 0);
	const named = this.getNodeParameter('watch', 'oneSearch') === 'severalSearches';
	const searches = named
		? namedSearches.call(this, options)
		: mergeSearches([{ name: 'Search', filters: filters.call(this, (name) => this.getNodeParameter(name, {}), '') }]);
	const nowMs = Date.now();
	const durable = this.getMode() !== 'manual' && keepsNoActivationPoll(this);
	if (durable) refuseSeveralEntries.call(this);
	return {
		searches,
		named,
		simplify: this.getNodeParameter('simplify', true) as boolean,
		includeUsage: options.includeUsage === true,
		output: options.output === 'perPoll' ? 'perPoll' : 'perJob',
		cycle: {
			lateWindowMs: positive(options.lateWindowMinutes, DEFAULT_LATE_WINDOW_MINUTES) * MINUTE_MS,
			firstPollLookbackMs: firstPollHours > 0 ? firstPollHours * HOUR_MS : undefined,
			maxJobsPerPoll: Math.floor(positive(options.maxJobsPerPoll, DEFAULT_MAX_JOBS_PER_POLL)),
			delivery: options.delivery === 'lowestCost' ? 'lowestCost' : 'asSoonAsSeen',
			requestsPerMinute: positive(options.requestsPerMinute, DEFAULT_REQUESTS_PER_MINUTE),
			pollTimeMs: pollTimeMs(this),
			intervalMs: shortestIntervalMs(this),
			// A cron this cannot read is not taken for polls an hour apart here: each poll would come after a pause.
			longestIntervalMs: nowMs - SCHEDULED_POLL_LATE_MS - lastScheduledMs(this, nowMs, true),
			// The activation poll ran after the moment Poll Times named before this one.
			unkeptActivationWithinMs: durable ? nowMs - lastScheduledMs(this, nowMs) : undefined,
		},
	};
}
