import { MINUTE_MS } from './tunables';

/** The presets of n8n's cron libraries (a second's, `@secondly`, is not read), as the fields they stand for. */
const PRESETS = new Map(Object.entries({ '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *', '@weekly': '0 0 * * 0', '@weekdays': '0 0 * * 1-5', '@weekends': '0 0 * * 0,6', '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *', '@minutely': '* * * * *' }));

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** Minute, hour, day of month, month, weekday: the least and most each allows, and its names. */
const FIELDS: [number, number, string[]][] = [[0, 59, []], [0, 23, []], [1, 31, []], [1, 12, MONTHS], [0, 7, WEEKDAYS]];

/** The values a field allows (`*`, `?`, lists, ranges, steps, names; weekday 7 is Sunday), or undefined (`L`, `W`, `#`). */
function fieldValues(field: string, [min, max, names]: (typeof FIELDS)[number]): Set<number> | undefined {
	const values = new Set<number>();
	const value = (text: string) => (names.includes(text) ? names.indexOf(text) + min : /^\d+$/.test(text) ? Number(text) : Number.NaN);
	for (const part of field.toLowerCase().split(',')) {
		const [range, stepText, ...extra] = part.split('/');
		const [fromText, toText, ...beyond] = range.split('-');
		const all = range === '*' || range === '?';
		const step = stepText === undefined ? 1 : Number(stepText);
		const from = all ? min : value(fromText);
		const to = all ? max : toText !== undefined ? value(toText) : stepText !== undefined ? max : from;
		if (extra.length + beyond.length > 0 || !Number.isInteger(step) || step < 1 || !(from >= min && to <= max && from <= to)) return undefined;
		for (let v = from; v <= to; v += step) values.add(max === 7 && v === 7 ? 0 : v);
	}
	return values;
}

/** Where the clocks went back (an hour, or half of one), a wall time comes twice: n8n 2.41 runs the first only. */
function firstPass(ms: number, localAt: (ms: number) => { minute: number; hour: number; day: number }): number {
	const wall = localAt(ms);
	for (const backMs of [60 * MINUTE_MS, 30 * MINUTE_MS]) {
		const earlier = localAt(ms - backMs);
		if (earlier.minute === wall.minute && earlier.hour === wall.hour && earlier.day === wall.day) return ms - backMs;
	}
	return ms;
}

/**
 * A cron expression (five fields, or six with the seconds first, or a preset, which only n8n 2.8 takes) read to the minute,
 * or undefined (`L`, `W`, `#`): its minutes, hours, and whether it names a day (month 1-12, weekday 0-6 from Sunday).
 * Where day of month and weekday both restrict, either one matches, as in both of n8n's cron libraries.
 */
function cronFields(expression: string): { minutes: Set<number>; hours: Set<number>; names: (day: number, month: number, weekday: number) => boolean } | undefined {
	const text = expression.trim();
	const fields = (PRESETS.get(text.toLowerCase()) ?? text).split(/\s+/);
	if (fields.length < 5 || fields.length > 6) return undefined;
	const sets = fields.slice(-5).map((field, i) => fieldValues(field, FIELDS[i]));
	if (!sets.every((set): set is Set<number> => set !== undefined)) return undefined;
	const [minutes, hours, days, months, weekdays] = sets;
	// `0-6` is every weekday, as n8n 2.8 reads it.
	const eitherDay = days.size < 31 && weekdays.size < 7;
	const names = (day: number, month: number, weekday: number) =>
		months.has(month) && (eitherDay ? days.has(day) || weekdays.has(weekday) : days.has(day) && weekdays.has(weekday));
	return { minutes, hours, names };
}

/**
 * The last moment at or before `atMs`, to the minute, that a cron expression names in `timeZone` (read as n8n 2.8 does:
 * n8n 2.41 runs more often, so the moment found here is never later than the one it ran); undefined where it cannot be
 * read or names none in about four years.
 */
export function lastCronMs(expression: string, timeZone: string, atMs: number): number | undefined {
	const cron = cronFields(expression);
	if (!cron) return undefined;
	const { minutes, hours } = cron;
	let format: Intl.DateTimeFormat;
	try {
		format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short' });
	} catch {
		return undefined;
	}
	const localAt = (ms: number) => {
		const local = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
		return { minute: Number(local.minute), hour: Number(local.hour), day: Number(local.day), month: Number(local.month), weekday: WEEKDAYS.indexOf(local.weekday.toLowerCase()) };
	};
	let ms = Math.floor(atMs / MINUTE_MS) * MINUTE_MS;
	// A day that does not match is passed whole, an hour that does not whole: a few thousand steps reach years back.
	for (let step = 0; step < 5_000; step++) {
		const { minute, hour, day, month, weekday } = localAt(ms);
		if (!cron.names(day, month, weekday)) {
			ms -= (hour * 60 + minute + 1) * MINUTE_MS;
			// Where the clocks went forward that day, that lands an hour early in the day before: back to its last minute.
			const landed = localAt(ms);
			if (landed.day !== day && landed.hour < 23) ms += (23 - landed.hour) * 60 * MINUTE_MS;
		} else if (!hours.has(hour)) ms -= (minute + 1) * MINUTE_MS;
		else if (!minutes.has(minute)) ms -= MINUTE_MS;
		else return firstPass(ms, localAt);
	}
	return undefined;
}
