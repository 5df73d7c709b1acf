import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { cronFields, lastCronMs, secondsGapMs, type CronFields } from './cron';
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
	if (item.mode === 'custom') return [secondsGapMs(String(item.cronExpression ?? '')) ?? MINUTE_MS, HOUR_MS];
	if (item.mode !== 'everyX') return MODE_INTERVALS_MS.get(item.mode) ?? [MINUTE_MS, HOUR_MS];
	const value = Math.floor(Number(item.value));
	const [size, unitMs] = item.unit === 'minutes' ? [60, MINUTE_MS] : [24, HOUR_MS];
	return [shortestStep(value, size) * unitMs, Math.min(Math.max(1, value), size) * unitMs];
}

/** The Poll Times entries (Every Minute when none is set). */
function entries(context: IPollFunctions): IDataObject[] {
	const items = (context.getNodeParameter('pollTimes', {}) as { item?: IDataObject[] }).item ?? [];
	return items.length > 0 ? items : [{ mode: 'everyMinute' }];
}

/** Over every Poll Times entry, the shortest time between two polls. */
export const shortestIntervalMs = (context: IPollFunctions): number => Math.min(...entries(context).map((item) => entryIntervalsMs(item)[0]));

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
	return Math.max(...entries(context).map(lastOf));
}

/** The calendar's days over eight years (leap days and every weekday of every date among them), as [day, month, weekday]. */
function calendarDays(): [number, number, number][] {
	const start = Date.UTC(2026, 0, 1);
	return Array.from({ length: 8 * 366 }, (_, i) => new Date(start + i * DAY_MS)).map((d) => [d.getUTCDate(), d.getUTCMonth() + 1, d.getUTCDay()]);
}

/**
 * Two Poll Times entries (numbered from 1) that n8n 2.41 may start polling less than `nearMs` apart (across midnight too), and
 * a time of day they do, the next from `atMs`; or the first entry that polls several times a minute, or whose times this
 * cannot know beside others (Every X Hours: n8n picks its minute; a cron with `L`, `W`, `#`). Wall times: a cron naming a
 * time the clocks skip is not counted where n8n runs it.
 */
export function entriesPollingTogether(context: IPollFunctions, nearMs: number, atMs: number): { entries: number[]; at?: string; often?: boolean } | undefined {
	const items = entries(context);
	const often = items.findIndex((item) => item.mode === 'custom' && secondsGapMs(String(item.cronExpression ?? '')) !== undefined);
	if (often >= 0) return { entries: [often + 1], often: true };
	const crons = items.map((item) => cronFields(entryCron(item) ?? '', true));
	if (crons.length < 2) return undefined;
	const unknown = crons.findIndex((cron) => cron === undefined);
	if (unknown >= 0) return { entries: [unknown + 1] };
	const days = calendarDays();
	const reach = Math.ceil(nearMs / MINUTE_MS) - 1;
	const local = new Intl.DateTimeFormat('en-GB', { timeZone: context.getTimezone(), hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(atMs);
	const nowMinute = Number(local.slice(0, 2)) * 60 + Number(local.slice(3, 5));
	const polls = (cron: CronFields, minute: number) => minute >= 0 && minute < 24 * 60 && cron.hours.has(Math.floor(minute / 60)) && cron.minutes.has(minute % 60);
	for (let i = 0; i < crons.length; i++) {
		for (let j = i + 1; j < crons.length; j++) {
			const [a, b] = [crons[i]!, crons[j]!];
			// The other polls a day later (1), the same day or a day earlier, on some date both name so.
			const laters = [-1, 0, 1].filter((later) => days.some(([day, month, weekday], d) => a.names(day, month, weekday) && days[d + later] !== undefined && b.names(...days[d + later])));
			for (let offset = 0; offset < 24 * 60; offset++) {
				const minute = (nowMinute + offset) % (24 * 60);
				if (!polls(a, minute)) continue;
				for (let k = -reach; k <= reach; k++) {
					if (!laters.some((later) => polls(b, minute + k - later * 24 * 60))) continue;
					const at = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
					return { entries: [i + 1, j + 1], at };
				}
			}
		}
	}
	return undefined;
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
export const keepsNoActivationPoll = (context: IPollFunctions): boolean => hostBudgetMs(context) < UNFENCED_POLL_BUDGET_MS;
