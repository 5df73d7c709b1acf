import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { BUCKET_MINUTES, POLL_TIME_SHARE, SCHEDULED_POLL_LATE_MS } from './tunables';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;
const MONTH_MS = 31 * DAY_MS;

/** However far apart polls are, one spends at most a bucket of requests: a 429 storm ends the poll, not the day. */
const MAX_POLL_TIME_MS = BUCKET_MINUTES * MINUTE_MS;

/** What n8n 2.41 gives a poll it does not fence (its default): a shorter budget means the durable scheduler runs the poll. */
const UNFENCED_POLL_BUDGET_MS = 5 * MINUTE_MS;

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
 * The longest time n8n may leave between two polls of one Poll Times entry. A custom cron
 * expression is not read: it counts as an hour.
 */
function entryLongestIntervalMs(item: IDataObject): number {
	switch (item.mode) {
		case 'everyX': {
			const value = Math.floor(Number(item.value));
			return item.unit === 'minutes' ? Math.min(Math.max(1, value), 60) * MINUTE_MS : Math.min(Math.max(1, value), 24) * HOUR_MS;
		}
		case 'everyMinute':
			return MINUTE_MS;
		case 'everyHour':
			return HOUR_MS;
		case 'everyDay':
			return DAY_MS;
		case 'everyWeek':
			return WEEK_MS;
		case 'everyMonth':
			return MONTH_MS;
		default:
			return HOUR_MS;
	}
}

const pollTimesOf = (context: IPollFunctions) => (context.getNodeParameter('pollTimes', {}) as { item?: IDataObject[] }).item ?? [];

/** The shortest time n8n may leave between two polls, over every Poll Times entry (a minute when none is set). */
export function shortestIntervalMs(context: IPollFunctions): number {
	const items = pollTimesOf(context);
	return items.length > 0 ? Math.min(...items.map(entryIntervalMs)) : MINUTE_MS;
}

/** What n8n says a poll may take (getPollBudgetMs, n8n 2.41), or NaN where it does not say (n8n 2.8). */
function hostBudgetMs(context: IPollFunctions): number {
	const host = context as unknown as { getPollBudgetMs?: () => unknown };
	const given = typeof host.getPollBudgetMs === 'function' ? Number(host.getPollBudgetMs()) : Number.NaN;
	return Number.isFinite(given) && given > 0 ? given : Number.NaN;
}

/**
 * How long one poll may take, requests and retry waits included. Newer n8n says (getPollBudgetMs);
 * n8n 2.8 does not, so it is derived from Poll Times: a share of the shortest interval between two
 * polls, so a poll ends before the next one starts, and at most MAX_POLL_TIME_MS.
 */
export function pollTimeMs(context: IPollFunctions): number {
	const derived = Math.min(MAX_POLL_TIME_MS, shortestIntervalMs(context) * POLL_TIME_SHARE);
	const given = hostBudgetMs(context);
	return Number.isNaN(given) ? derived : Math.min(given, derived);
}

/**
 * n8n 2.41's durable scheduler fences its polls (a budget shorter than an unfenced poll's) and
 * keeps nothing of the poll that activated the trigger, which ran outside it and sent nothing.
 * A search with no state in such a poll was activated by that poll, after the scheduled moment
 * before this one: within the longest interval of Poll Times (and a late start) before now.
 * Elsewhere the activation poll's state is kept: undefined.
 */
export function unkeptActivationWithinMs(context: IPollFunctions): number | undefined {
	if (!(hostBudgetMs(context) < UNFENCED_POLL_BUDGET_MS)) return undefined;
	const items = pollTimesOf(context);
	const longestMs = items.length > 0 ? Math.min(...items.map(entryLongestIntervalMs)) : MINUTE_MS;
	return longestMs + SCHEDULED_POLL_LATE_MS;
}
