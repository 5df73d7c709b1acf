import { CronTime } from 'cron';
import fc from 'fast-check';

import { lastCronMs } from '../../nodes/JobSearch/trigger/cron';
import { propertyParameters } from '../support/property';

const MINUTE = 60_000;
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

const value = (min: number, max: number) => fc.integer({ min, max }).map(String);

/** One cron field from `min` to `max`: every value, one, a range, a step, or a list (no value twice: n8n 2.41 refuses that). */
const field = (min: number, max: number) =>
	fc.oneof(
		fc.constant('*'),
		value(min, max),
		fc.tuple(fc.integer({ min, max }), fc.integer({ min, max })).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
		fc.tuple(fc.constantFrom('*', String(min)), fc.integer({ min: 2, max: Math.max(2, max - min) })).map(([from, step]) => `${from}/${step}`),
		fc.uniqueArray(value(min, max), { minLength: 2, maxLength: 3 }).map((values) => values.join(',')),
	);

/** A random five-field cron expression, its days of month up to `lastDay`. */
const cronExpression = (lastDay: number): fc.Arbitrary<string> =>
	fc.tuple(field(0, 59), field(0, 23), field(1, lastDay), field(1, 12), field(0, 6)).map((fields) => fields.join(' '));

describe('the last moment a cron expression names', () => {
	it('is the evening before the weekend for a working-hours poll on a Monday morning, in the workflow time zone', () => {
		// 2026-11-23 is a Monday; Berlin is an hour ahead of UTC in November.
		expect(iso(lastCronMs('0 */15 8-18 * * 1-5', 'Europe/Berlin', at('2026-11-23T06:54:00Z')))).toBe('2026-11-20T17:45:00.000Z');
		expect(iso(lastCronMs('*/15 8-18 * * mon-fri', 'UTC', at('2026-11-23T07:54:00Z')))).toBe('2026-11-20T18:45:00.000Z');
	});

	it('matches either day where both the day of month and the weekday are restricted, as both of n8n\'s cron libraries do', () => {
		// Fridays and the 13th: 2026-11-13 is a Friday, 2026-12-13 a Sunday.
		expect(iso(lastCronMs('0 9 13 * 5', 'UTC', at('2026-12-14T00:00:00Z')))).toBe('2026-12-13T09:00:00.000Z');
		expect(iso(lastCronMs('0 9 13 * 5', 'UTC', at('2026-12-13T08:00:00Z')))).toBe('2026-12-11T09:00:00.000Z');
		// Found by the property below (its fixed seed): a field that allows every value is no restriction, however written, as in
		// n8n 2.8 (n8n 2.41 takes `0-6` as one and runs more often: the moment found here is then earlier, never later).
		expect(iso(lastCronMs('*/2 */2 2 */2 0-6', 'UTC', at('2026-01-01T00:00:00Z')))).toBe('2025-11-02T22:58:00.000Z');
	});

	it('reads presets, names, steps from a value, and 7 as Sunday', () => {
		expect(iso(lastCronMs('@weekly', 'UTC', at('2026-11-25T12:00:00Z')))).toBe('2026-11-22T00:00:00.000Z');
		expect(iso(lastCronMs('0 0 1 jan,jul *', 'UTC', at('2026-11-25T12:00:00Z')))).toBe('2026-07-01T00:00:00.000Z');
		expect(iso(lastCronMs('5/20 * * * *', 'UTC', at('2026-11-25T12:04:00Z')))).toBe('2026-11-25T11:45:00.000Z');
		expect(iso(lastCronMs('30 10 * * 7', 'UTC', at('2026-11-25T12:00:00Z')))).toBe('2026-11-22T10:30:00.000Z');
	});

	// Found by the property below (soak seeds 781532673 and 781530915): a day passed whole measured 24 hours back, and
	// where the clocks went forward that day it landed an hour early, passing over the last hour of the day before.
	it('does not pass over the last hour of the day before a day the clocks go forward', () => {
		expect(iso(lastCronMs('*/2 * 1 3 2-6', 'Europe/Berlin', at('2026-01-01T00:00:00Z')))).toBe('2025-03-29T22:58:00.000Z');
		expect(iso(lastCronMs('0,0 * */4 * 1,6', 'Australia/Adelaide', at('2026-10-03T16:30:00Z')))).toBe('2026-10-03T13:30:00.000Z');
	});

	// Also found by it (seed 781543191): n8n 2.8's library runs a moment the clocks skip in the hour after; none is taken
	// here, so the last moment is an earlier one, which reads a little more and loses nothing.
	it('takes a moment the clocks skip for none, so the last one before it is earlier', () => {
		expect(iso(lastCronMs('0 0,2 3 1-10 *', 'Australia/Adelaide', at('2027-10-02T16:30:00Z')))).toBe('2027-10-02T14:30:00.000Z');
	});

	// Found by a review against n8n 2.41's cron library: where the clocks go back, it runs a repeated wall time once, the
	// first time; the second is later than any moment it ran (an activation taken after it could lose jobs).
	it('takes the first of a wall time the clocks repeat, as n8n 2.41 runs it', () => {
		expect(iso(lastCronMs('30 1 * * *', 'America/New_York', at('2026-11-02T06:24:20Z')))).toBe('2026-11-01T05:30:00.000Z');
		// Lord Howe Island goes back half an hour.
		expect(iso(lastCronMs('*/15 * * * *', 'Australia/Lord_Howe', at('2026-04-04T15:20:00Z')))).toBe('2026-04-04T14:45:00.000Z');
	});

	it('is nothing for what it cannot read, so the caller falls back to the longest interval', () => {
		for (const expression of ['0 0 L * *', '0 0 * * 5#2', '0 0 15W * *', '* * *', '61 * * * *', '0 0 31 2 *', '@secondly', 'every day']) {
			expect({ expression, last: lastCronMs(expression, 'UTC', at('2026-11-25T12:00:00Z')) }).toEqual({ expression, last: undefined });
		}
		expect(lastCronMs('0 9 * * *', 'Not/AZone', at('2026-11-25T12:00:00Z'))).toBeUndefined();
	});

	it('agrees with the cron library of n8n 2.8 on random expressions, time zones and moments (a fixed seed)', () => {
		const expression = cronExpression(28);
		const zone = fc.constantFrom('UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Adelaide');
		const moment = fc.integer({ min: at('2026-01-01T00:00:00Z'), max: at('2027-12-31T00:00:00Z') });
		fc.assert(
			fc.property(expression, zone, moment, (cron, timeZone, atMs) => {
				const last = lastCronMs(cron, timeZone, atMs);
				const time = new CronTime(cron, timeZone);
				const next = (ms: number) => time.getNextDateFrom(new Date(ms), timeZone).toMillis();
				if (last === undefined) {
					// Nothing in about four years: then nothing in a year before either.
					expect(next(atMs - 366 * 24 * 60 * MINUTE)).toBeGreaterThan(Math.floor(atMs / MINUTE) * MINUTE);
					return;
				}
				// A moment the library names (never a later one: that could lose a job), and none after it up to the minute
				// asked but one the library moved out of an hour the clocks skipped (see the named case above).
				expect(iso(next(last - 1))).toBe(iso(last));
				const after = next(last);
				const offsetAt = (ms: number) => new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).format(ms);
				if (after <= Math.floor(atMs / MINUTE) * MINUTE) expect(offsetAt(after)).not.toBe(offsetAt(after - 60 * MINUTE));
			}),
			propertyParameters(300, 20261130),
		);
	});
});
