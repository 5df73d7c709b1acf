import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { cronFields, lastCronMs, type CronFields } from './cron';
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
	if (item.mode === 'custom') return [MINUTE_MS, HOUR_MS];
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

const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Every date on every weekday, as [day, month, weekday] (28 years bring them all), each with the dates that may follow it. */
const DATES = MONTH_DAYS.flatMap((days, m) => Array.from({ length: days * 7 }, (_, i): [number, number, number] => [Math.floor(i / 7) + 1, m + 1, i % 7]));
const following = ([day, month, weekday]: [number, number, number]): [number, number, number][] =>
	[...(day < MONTH_DAYS[month - 1] ? [[day + 1, month]] : []), ...(day === MONTH_DAYS[month - 1] || (month === 2 && day === 28) ? [[1, (month % 12) + 1]] : [])].map(
		([d, m]) => [d, m, (weekday + 1) % 7],
	);

/** The seconds an entry may poll at: n8n 2.41 puts every fixed mode at one second it picks, a five-field cron at 0. */
function secondsOf(item: IDataObject): [number, number] {
	if (item.mode !== 'custom') return [0, 59];
	const fields = String(item.cronExpression ?? '').trim().split(/\s+/);
	if (fields.length < 6) return [0, 0];
	return /^\d+$/.test(fields[0]) ? [Number(fields[0]), Number(fields[0])] : [0, 59];
}

/** Where the clocks of `timeZone` jump forward within a year of `atMs`: [the wall minute they jump at, by how many minutes]. */
function forwardJumps(timeZone: string, atMs: number): [number, number][] {
	let format: Intl.DateTimeFormat;
	try {
		format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric', timeZoneName: 'longOffset' });
	} catch {
		return [];
	}
	const local = (ms: number) => {
		const parts = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
		const [, sign, hours, minutes] = /([+-])(\d\d):(\d\d)/.exec(parts.timeZoneName) ?? ['', '+', '0', '0'];
		return { wall: Number(parts.hour) * 60 + Number(parts.minute), offset: (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) };
	};
	const jumps = new Map<string, [number, number]>();
	const startMs = Math.floor(atMs / MINUTE_MS) * MINUTE_MS;
	for (let day = 0; day < 366; day++) {
		let [lo, hi] = [startMs + day * DAY_MS, startMs + (day + 1) * DAY_MS];
		const shift = local(hi).offset - local(lo).offset;
		if (shift <= 0) continue;
		while (hi - lo > MINUTE_MS) {
			const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
			if (local(mid).offset === local(lo).offset) lo = mid;
			else hi = mid;
		}
		const at = local(lo).wall + 1;
		jumps.set(`${at}/${shift}`, [at, shift]);
	}
	return [...jumps.values()];
}

/**
 * Two Poll Times entries (numbered from 1) that n8n 2.41 may start polling less than `nearMs` apart (a poll's time and a late
 * start: across midnight too), and a time of day they do, the next from `atMs`; or the first entry whose times this cannot
 * know beside others (Every X Hours: n8n picks its minute; a cron with `L`, `W`, `#`).
 */
export function entriesPollingTogether(context: IPollFunctions, nearMs: number, atMs: number): { entries: number[]; at?: string } | undefined {
	const items = entries(context);
	const crons = items.map((item) => cronFields(entryCron(item) ?? '', true));
	if (crons.length < 2) return undefined;
	const unknown = crons.findIndex((cron) => cron === undefined);
	if (unknown >= 0) return { entries: [unknown + 1] };
	// The next time of day they meet is counted from now, in the workflow's time zone (from midnight where it is no zone).
	let nowMinute: number;
	try {
		const now = new Intl.DateTimeFormat('en-GB', { timeZone: context.getTimezone(), hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(atMs);
		nowMinute = Number(now.slice(0, 2)) * 60 + Number(now.slice(3, 5));
	} catch {
		nowMinute = 0;
	}
	const clock = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
	const jumps = forwardJumps(context.getTimezone(), atMs);
	const polls = (cron: CronFields, minute: number) => minute >= 0 && minute < 24 * 60 && cron.hours.has(Math.floor(minute / 60)) && cron.minutes.has(minute % 60);
	const reach = Math.ceil(nearMs / MINUTE_MS) + 1;
	for (let i = 0; i < crons.length; i++) {
		for (let j = i + 1; j < crons.length; j++) {
			const [a, b] = [crons[i]!, crons[j]!];
			// Whether polls `k` minutes apart may start closer than `nearMs`: the fixed modes share their second.
			const [[aFrom, aTo], [bFrom, bTo]] = [secondsOf(items[i]), secondsOf(items[j])];
			const shared = items[i].mode !== 'custom' && items[j].mode !== 'custom';
			const near = (k: number) => (shared ? Math.abs(k * MINUTE_MS) < nearMs : k * MINUTE_MS + (bTo - aFrom) * 1_000 > -nearMs && k * MINUTE_MS + (bFrom - aTo) * 1_000 < nearMs);
			// The other polls a day later (1), the same day or a day earlier, on some date both name so.
			const meet = (first: CronFields, then: CronFields) => DATES.some((date) => first.names(...date) && following(date).some((next) => then.names(...next)));
			const laters = [-1, 0, 1].filter((later) => (later === 0 ? DATES.some((date) => a.names(...date) && b.names(...date)) : later > 0 ? meet(a, b) : meet(b, a)));
			for (let offset = 0; offset < 24 * 60; offset++) {
				const minute = (nowMinute + offset) % (24 * 60);
				if (!polls(a, minute)) continue;
				for (let k = -reach; k <= reach; k++) {
					if (!near(k) || !laters.some((later) => polls(b, minute + k - later * 24 * 60))) continue;
					return { entries: [i + 1, j + 1], at: clock(minute) };
				}
			}
			// Where the clocks jump forward (any day: a few over-refused), two wall times on either side of the jump come
			// closer by it; a time it skips runs that much later.
			for (const [jumpAt, shift] of jumps) {
				const real = (wall: number) => (wall < jumpAt + shift ? wall : wall - shift);
				const around = (cron: CronFields) =>
					[-24 * 60, 0, 24 * 60].flatMap((day) => [...cron.hours].flatMap((h) => [...cron.minutes].map((m) => day + h * 60 + m))).filter((wall) => Math.abs(wall - jumpAt) <= shift + reach);
				for (const wallA of around(a)) {
					const straddles = (wallB: number) => (wallA < jumpAt + shift) !== (wallB < jumpAt + shift);
					if (around(b).some((wallB) => straddles(wallB) && near(real(wallB) - real(wallA)))) return { entries: [i + 1, j + 1], at: clock((wallA + 24 * 60) % (24 * 60)) };
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
