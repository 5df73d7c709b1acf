import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { BUCKET_MINUTES, HOUR_MS, MINUTE_MS, POLL_TIME_SHARE, SCHEDULED_POLL_LATE_MS } from './tunables';

const DAY_MS = 24 * HOUR_MS;

/** However far apart polls are, one spends at most a bucket of requests: a 429 storm ends the poll, not the day. */
const MAX_POLL_TIME_MS = BUCKET_MINUTES * MINUTE_MS;

/** What n8n 2.41 gives a poll it does not fence (its default): a shorter budget means the durable scheduler runs the poll. */
const UNFENCED_POLL_BUDGET_MS = 5 * MINUTE_MS;

/** [shortest, longest] time between two polls of each fixed Poll Times mode. */
const MODE_INTERVALS_MS = new Map<unknown, [number, number]>([
	['everyMinute', [MINUTE_MS, MINUTE_MS]],
	['everyHour', [HOUR_MS, HOUR_MS]],
	['everyDay', [DAY_MS, DAY_MS]],
	['everyWeek', [DAY_MS, 7 * DAY_MS]],
	['everyMonth', [DAY_MS, 31 * DAY_MS]],
]);

/** The shortest time between two ticks of `*\/step` over a cycle of `size` (minutes of an hour, hours of a day). */
function shortestStep(step: number, size: number): number {
	if (!(step >= 1) || step >= size) return size;
	const last = Math.floor((size - 1) / step) * step;
	return Math.min(step, size - last);
}

/** The presets of n8n's cron library (4.x) that poll an hour apart or more, as the fields they stand for. */
const CRON_PRESETS = new Map(Object.entries({ '@yearly': '0 0 1 1 *', '@monthly': '0 0 1 * *', '@weekly': '0 0 * * 0', '@weekdays': '0 0 * * 1-5', '@weekends': '0 0 * * 0,6', '@daily': '0 0 * * *', '@hourly': '0 * * * *' }));

/** The longest a custom cron may leave between two polls, read coarsely by the fields it restricts: an hour, a day, a week or a year. */
function cronLongestMs(expression: unknown): number {
	const text = String(expression ?? '').trim();
	const fields = (CRON_PRESETS.get(text.toLowerCase()) ?? text).split(/\s+/);
	const [hour, dayOfMonth, month, weekday] = fields.slice(fields.length > 5 ? 2 : 1);
	const any = (field?: string) => field === undefined || field === '*' || field === '?';
	if (!any(dayOfMonth) || !any(month)) return 366 * DAY_MS;
	return !any(weekday) ? 7 * DAY_MS : any(hour) ? HOUR_MS : DAY_MS;
}

/**
 * [shortest, longest] time n8n may leave between two polls of one entry. A custom cron counts as a minute to an hour, or with
 * `readCron` as its coarse longest: a pause in the polls needs that, where an activation taken that far back would send old jobs.
 */
function entryIntervalsMs(item: IDataObject, readCron = false): [number, number] {
	if (item.mode === 'custom') return [MINUTE_MS, readCron ? cronLongestMs(item.cronExpression) : HOUR_MS];
	if (item.mode !== 'everyX') return MODE_INTERVALS_MS.get(item.mode) ?? [MINUTE_MS, HOUR_MS];
	const value = Math.floor(Number(item.value));
	const [size, unitMs] = item.unit === 'minutes' ? [60, MINUTE_MS] : [24, HOUR_MS];
	return [shortestStep(value, size) * unitMs, Math.min(Math.max(1, value), size) * unitMs];
}

/** Over every Poll Times entry (a minute when none is set): the shortest interval, and the longest one the most frequent entry allows. */
function intervalsMs(context: IPollFunctions, readCron = false): { shortestMs: number; longestMs: number } {
	const items = (context.getNodeParameter('pollTimes', {}) as { item?: IDataObject[] }).item ?? [];
	if (items.length === 0) return { shortestMs: MINUTE_MS, longestMs: MINUTE_MS };
	const intervals = items.map((item) => entryIntervalsMs(item, readCron));
	return { shortestMs: Math.min(...intervals.map(([shortest]) => shortest)), longestMs: Math.min(...intervals.map(([, longest]) => longest)) };
}

export const shortestIntervalMs = (context: IPollFunctions): number => intervalsMs(context).shortestMs;
export const longestIntervalMs = (context: IPollFunctions): number => intervalsMs(context, true).longestMs;

/** What n8n says a poll may take (getPollBudgetMs, n8n 2.41), or Infinity where it does not say (n8n 2.8). */
function hostBudgetMs(context: IPollFunctions): number {
	const host = context as unknown as { getPollBudgetMs?: () => unknown };
	const given = typeof host.getPollBudgetMs === 'function' ? Number(host.getPollBudgetMs()) : Number.NaN;
	return Number.isFinite(given) && given > 0 ? given : Infinity;
}

/** How long one poll may take: what n8n says, at most a share of the shortest interval (so the next poll finds it done) and MAX_POLL_TIME_MS. */
export function pollTimeMs(context: IPollFunctions): number {
	return Math.min(hostBudgetMs(context), MAX_POLL_TIME_MS, shortestIntervalMs(context) * POLL_TIME_SHARE);
}

/**
 * n8n 2.41's durable scheduler (a fenced poll budget) keeps nothing of the activation poll: a search without state was
 * activated within the longest interval (and a late start) before now. Elsewhere that poll's state is kept: undefined.
 */
export function unkeptActivationWithinMs(context: IPollFunctions): number | undefined {
	if (hostBudgetMs(context) >= UNFENCED_POLL_BUDGET_MS) return undefined;
	return intervalsMs(context).longestMs + SCHEDULED_POLL_LATE_MS;
}
