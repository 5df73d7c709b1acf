import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { MAX_POLL_TIME_MS, MIN_POLL_TIME_MS, POLL_TIME_OF_INTERVAL } from './tunables';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The shortest time between two ticks of `*\/step` over a cycle of `size` (minutes of an hour, hours of a day). */
function shortestStep(step: number, size: number): number {
	if (!(step >= 1) || step >= size) return size;
	const last = Math.floor((size - 1) / step) * step;
	return Math.min(step, size - last);
}

/**
 * The shortest time n8n may leave between two polls of one Poll Times entry. A custom cron
 * expression is not read: it counts as the shortest there is, a minute.
 */
function entryIntervalMs(item: IDataObject): number {
	switch (item.mode) {
		case 'everyHour':
			return HOUR_MS;
		case 'everyX': {
			const value = Math.floor(Number(item.value));
			return item.unit === 'minutes' ? shortestStep(value, 60) * MINUTE_MS : shortestStep(value, 24) * HOUR_MS;
		}
		case 'everyDay':
		case 'everyWeek':
		case 'everyMonth':
			return DAY_MS;
		default:
			return MINUTE_MS;
	}
}

/**
 * How long one poll may take, requests and retry waits included. Newer n8n says (getPollBudgetMs);
 * n8n 2.8 does not, so it is derived from Poll Times: a share of the shortest interval between two
 * polls, so a poll ends before the next one starts, and at most MAX_POLL_TIME_MS.
 */
/** The shortest time n8n may leave between two polls, over every Poll Times entry (a minute when none is set). */
export function shortestIntervalMs(context: IPollFunctions): number {
	const items = (context.getNodeParameter('pollTimes', {}) as { item?: IDataObject[] }).item ?? [];
	return items.length > 0 ? Math.min(...items.map(entryIntervalMs)) : MINUTE_MS;
}

export function pollTimeMs(context: IPollFunctions): number {
	const intervalMs = shortestIntervalMs(context);
	const derived = Math.min(MAX_POLL_TIME_MS, Math.max(MIN_POLL_TIME_MS, intervalMs * POLL_TIME_OF_INTERVAL));
	const host = context as unknown as { getPollBudgetMs?: () => unknown };
	const given = typeof host.getPollBudgetMs === 'function' ? Number(host.getPollBudgetMs()) : Number.NaN;
	return Number.isFinite(given) && given > 0 ? Math.min(given, derived) : derived;
}
