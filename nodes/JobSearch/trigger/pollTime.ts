import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { lastCronMs } from './cron';
import { BUCKET_MINUTES, HOUR_MS, MINUTE_MS, POLL_TIME_SHARE, SCHEDULED_POLL_LATE_MS } from './tunables';

const DAY_MS = 24 * HOUR_MS;

/** However far apart polls are, one spends at most a bucket of requests: a 429 storm ends the poll, not the day. */
const MAX_POLL_TIME_MS = BUCKET_MINUTES * MINUTE_MS;

/**
 * What n8n 2.41 gives every poll it does not fence, exactly: the durable scheduler gives its polls the shorter of its poll
 * timeout and lease less a fifth (36 s by default), which is 5 minutes only where the shorter is 375 s.
 */
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

/** Every Poll Times entry as five cron fields, where n8n picks none of its moments at random (it does Every X Hours' minute). */
function entryCron(item: IDataObject): string | undefined {
	const { minute, hour } = item;
	if (item.mode === 'custom') return String(item.cronExpression ?? '');
	if (item.mode === 'everyMinute') return '* * * * *';
	if (item.mode === 'everyHour') return `${minute} * * * *`;
	if (item.mode === 'everyDay') return `${minute} ${hour} * * *`;
	if (item.mode === 'everyWeek') return `${minute} ${hour} * * ${item.weekday}`;
	if (item.mode === 'everyMonth') return `${minute} ${hour} ${item.dayOfMonth} * *`;
	return item.mode === 'everyX' && item.unit === 'minutes' ? `*/${item.value} * * * *` : undefined;
}

/** [shortest, longest] time n8n may leave between two polls of one entry (a custom cron: a minute to an hour). */
function entryIntervalsMs(item: IDataObject): [number, number] {
	if (item.mode !== 'everyX') return MODE_INTERVALS_MS.get(item.mode) ?? [MINUTE_MS, HOUR_MS];
	const value = Math.floor(Number(item.value));
	const [size, unitMs] = item.unit === 'minutes' ? [60, MINUTE_MS] : [24, HOUR_MS];
	return [shortestStep(value, size) * unitMs, Math.min(Math.max(1, value), size) * unitMs];
}

/** The Poll Times entries (Every Minute when none is set). */
export function pollTimesEntries(context: IPollFunctions): IDataObject[] {
	const items = (context.getNodeParameter('pollTimes', {}) as { item?: IDataObject[] }).item ?? [];
	return items.length > 0 ? items : [{ mode: 'everyMinute' }];
}

/** Over every Poll Times entry, the shortest time between two polls. */
export const shortestIntervalMs = (context: IPollFunctions): number => Math.min(...pollTimesEntries(context).map((item) => entryIntervalsMs(item)[0]));

/** The longest a custom cron this cannot read (`L`, `W`, `#`) may leave between two polls, by the fields it restricts. */
function cronLongestMs(expression: unknown): number {
	const fields = String(expression ?? '').trim().split(/\s+/);
	const [hour, dayOfMonth, month, weekday] = fields.slice(fields.length > 5 ? 2 : 1);
	const any = (field?: string) => field === undefined || field === '*' || field === '?';
	if (!any(dayOfMonth) || !any(month)) return 366 * DAY_MS;
	return !any(weekday) ? 7 * DAY_MS : any(hour) ? HOUR_MS : DAY_MS;
}

/**
 * The last moment Poll Times named before this poll's own (which may start SCHEDULED_POLL_LATE_MS late), to the minute, in
 * the workflow's time zone; where n8n picks the minute (or a cron cannot be read), as far back as the entry's longest interval
 * allows (an hour for such a cron, or with `coarse` what its fields allow). A poll since then ran where none was missed; an
 * activation n8n did not keep came after it.
 */
export function lastScheduledMs(context: IPollFunctions, nowMs: number, coarse = false): number {
	const beforeMs = nowMs - SCHEDULED_POLL_LATE_MS - MINUTE_MS;
	const lastOf = (item: IDataObject) => {
		const cron = entryCron(item);
		const longestMs = coarse && item.mode === 'custom' ? cronLongestMs(item.cronExpression) : entryIntervalsMs(item)[1];
		return (cron === undefined ? undefined : lastCronMs(cron, context.getTimezone(), beforeMs)) ?? beforeMs + MINUTE_MS - longestMs;
	};
	return Math.max(...pollTimesEntries(context).map(lastOf));
}

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

/** n8n 2.41's durable scheduler (a fenced poll budget) keeps nothing of the activation poll; elsewhere its state is kept. */
export const keepsNoActivationPoll = (context: IPollFunctions): boolean => ![UNFENCED_POLL_BUDGET_MS, Infinity].includes(hostBudgetMs(context));
