import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { ADDITIONAL_FILTERS, searchFiltersFromParameters } from '../filters';
import { numberOption } from '../filters/numberOption';
import { operationError } from '../transport';
import type { CycleSettings } from './cycle';
import { TRIGGER_OWNED_KEYS } from './description';
import type { TriggerOutput } from './digest';
import { pollTimeMs, shortestIntervalMs } from './pollTime';
import {
	DEFAULT_LATE_WINDOW_MINUTES,
	DEFAULT_MAX_JOBS_PER_POLL,
	DEFAULT_REQUESTS_PER_MINUTE,
	DEFAULT_ROWS_PER_REQUEST,
} from './tunables';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** Everything a poll reads from the node's parameters, read once. */
export interface TriggerSettings {
	/** The search_jobs body without the window and limit, which each request adds. */
	filters: IDataObject;
	simplify: boolean;
	includeUsage: boolean;
	output: TriggerOutput;
	cycle: CycleSettings;
}

function positive(value: unknown, fallback: number): number {
	const n = numberOption(value, fallback);
	return n > 0 ? n : fallback;
}

/** The search filters, checked before any credit is spent. */
function filters(this: IPollFunctions): IDataObject {
	const { body, issues } = searchFiltersFromParameters((name) =>
		this.getNodeParameter(name, name === ADDITIONAL_FILTERS ? '{}' : {}),
	);
	const owned = TRIGGER_OWNED_KEYS.find((key) => key in body);
	if (owned) {
		throw operationError(this.getNode(), 'invalid_input', `Additional Filters (JSON) sets "${owned}", which the trigger sets itself`, {
			description:
				'Remove it. Each poll asks for the jobs since the previous one; use "Emit on First Poll (Hours)" to also get older jobs once, and "Max Jobs per Poll" to bound a poll.',
		});
	}
	if (issues.length > 0) {
		throw operationError(this.getNode(), 'invalid_input', issues[0].message, {
			description: issues.map((i) => i.message).join('\n'),
		});
	}
	return body as IDataObject;
}

export function readSettings(this: IPollFunctions): TriggerSettings {
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const firstPollHours = numberOption(options.firstPollHours, 0);
	return {
		filters: filters.call(this),
		simplify: this.getNodeParameter('simplify', true) as boolean,
		includeUsage: options.includeUsage === true,
		output: options.output === 'perPoll' ? 'perPoll' : 'perJob',
		cycle: {
			lateWindowMs: positive(options.lateWindowMinutes, DEFAULT_LATE_WINDOW_MINUTES) * MINUTE_MS,
			firstPollLookbackMs: firstPollHours > 0 ? firstPollHours * HOUR_MS : undefined,
			maxJobsPerPoll: Math.floor(positive(options.maxJobsPerPoll, DEFAULT_MAX_JOBS_PER_POLL)),
			rowsPerRequest: Math.floor(positive(options.rowsPerRequest, DEFAULT_ROWS_PER_REQUEST)),
			requestsPerMinute: positive(options.requestsPerMinute, DEFAULT_REQUESTS_PER_MINUTE),
			pollTimeMs: pollTimeMs(this),
			intervalMs: shortestIntervalMs(this),
		},
	};
}
