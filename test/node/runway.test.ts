import fc from 'fast-check';

import {
	DAY_MS,
	HOUR_MS,
	MIN_PACE_SPAN_MS,
	PACE_BUCKETS,
	PACE_BUCKET_MS,
	creditLeftOf,
	durationText,
	readPaceRecord,
	recordSpend,
	runwayOf,
	runwayReason,
	runwaySentence,
	runwayWarning,
	safeUpgradeUrl,
	spendPerDay,
	warnBelowMicrocents,
	type PaceRecord,
} from '../../nodes/JobSearch/service/runway';
import { propertyParameters } from '../support/property';

const T0 = Date.parse('2026-11-20T00:00:00.000Z');
const CENT = 1_000_000;

/** A record of runs at `times`, each spending `spend` (a number, or one per run). */
function recordOf(times: number[], spend: number | number[]): PaceRecord | undefined {
	let record: PaceRecord | undefined;
	times.forEach((at, i) => (record = recordSpend(record, at, Array.isArray(spend) ? spend[i] : spend)));
	return record;
}

describe('the pace record', () => {
	it('has no pace after a single run: what it spent belongs to a time before the record', () => {
		const record = recordSpend(undefined, T0, 5 * CENT);
		expect(record).toEqual({ sinceMs: T0, buckets: [] });
		expect(spendPerDay(record)).toBeUndefined();
	});

	it('measures a daily run exactly: what runs after the first spend, over the time since it', () => {
		const record = recordOf([0, 1, 2, 3].map((d) => T0 + d * DAY_MS), 7 * CENT);
		expect(spendPerDay(record)).toBe(7 * CENT);
	});

	it('measures a run every five minutes exactly, over the day it keeps', () => {
		const times = Array.from({ length: 2 * 24 * 12 }, (_, i) => T0 + i * 5 * 60_000);
		const record = recordOf(times, 2 * CENT);
		expect(spendPerDay(record)).toBeCloseTo(24 * 12 * 2 * CENT, 6);
		expect(record?.buckets).toHaveLength(PACE_BUCKETS);
		expect(times[times.length - 1] - record!.sinceMs).toBeLessThanOrEqual(PACE_BUCKETS * PACE_BUCKET_MS);
		expect(JSON.stringify(record).length).toBeLessThan(300);
	});

	it('forgets what is older than its buckets: a workflow that now spends less is measured at its new pace', () => {
		const before = Array.from({ length: 10 }, (_, d) => T0 + d * DAY_MS);
		const after = Array.from({ length: PACE_BUCKETS }, (_, d) => T0 + (10 + d) * DAY_MS);
		const record = recordOf([...before, ...after], [...before.map(() => 50 * CENT), ...after.map(() => CENT)]);
		expect(spendPerDay(record)).toBe(CENT);
	});

	it('does not extrapolate two runs seconds apart to a day: the span counts as at least six hours', () => {
		const record = recordOf([T0, T0 + 10_000], 3 * CENT);
		expect(MIN_PACE_SPAN_MS).toBe(6 * HOUR_MS);
		expect(spendPerDay(record)).toBe(4 * 3 * CENT);
	});

	it('still warns about a new workflow that runs every five minutes within its first hour, when its credit lasts about a day', () => {
		let record: PaceRecord | undefined;
		let remaining = 300 * CENT;
		let firstWarned: number | undefined;
		for (let run = 1; run <= 300 && firstWarned === undefined; run++) {
			record = recordSpend(record, T0 + (run - 1) * 5 * 60_000, CENT);
			remaining -= CENT;
			if (runwayReason(runwayOf({ remainingMicrocents: remaining, runMicrocents: CENT, perDayMicrocents: spendPerDay(record) }))) firstWarned = run;
		}
		expect(firstWarned).toBe(12);
	});

	it('keeps a run whose clock went back after the ones already kept', () => {
		const record = recordOf([T0, T0 + 6 * HOUR_MS, T0 + HOUR_MS], CENT);
		expect(record?.buckets.map(([end]) => end)).toEqual([T0 + 6 * HOUR_MS, T0 + 6 * HOUR_MS]);
		expect(spendPerDay(record)).toBe(2 * CENT * 4);
	});

	it('reads back what it wrote through JSON, and starts over from anything else', () => {
		const record = recordOf([T0, T0 + DAY_MS, T0 + 2 * DAY_MS], CENT);
		expect(readPaceRecord(JSON.parse(JSON.stringify(record)))).toEqual(record);
		for (const junk of [undefined, null, 'x', {}, { sinceMs: -1, buckets: [] }, { sinceMs: T0, buckets: [[T0 - 1, 1]] }, { sinceMs: T0, buckets: [[T0, 1.5]] }]) {
			expect(readPaceRecord(junk)).toBeUndefined();
		}
	});

	it('stays within its buckets, keeps every microcent spent after its start, and never goes back in time (property)', () => {
		fc.assert(
			fc.property(
				fc.array(fc.tuple(fc.integer({ min: 0, max: 2 * DAY_MS }), fc.integer({ min: 0, max: 100 * CENT })), { minLength: 1, maxLength: 200 }),
				(runs) => {
					let record: PaceRecord | undefined;
					let at = T0;
					const ends: number[] = [];
					for (const [gap, spent] of runs) {
						at += gap;
						record = recordSpend(record, at, spent);
						ends.push(at);
						expect(record.buckets.length).toBeLessThanOrEqual(PACE_BUCKETS);
						expect(readPaceRecord(JSON.parse(JSON.stringify(record)))).toEqual(record);
					}
					// The spend in the record is exactly that of the runs after its start.
					const kept = record!.buckets.reduce((sum, [, s]) => sum + s, 0);
					const after = runs.filter((_, i) => i > 0 && ends[i] > record!.sinceMs).reduce((sum, [, s]) => sum + s, 0);
					expect(kept).toBe(after);
				},
			),
			propertyParameters(200, 20261120),
		);
	});
});

describe('how far the credit goes', () => {
	it('counts whole runs like this one, and days at the pace', () => {
		expect(runwayOf({ remainingMicrocents: 42 * CENT, runMicrocents: 13 * CENT, perDayMicrocents: 20 * CENT })).toEqual({
			remainingMicrocents: 42 * CENT,
			runMicrocents: 13 * CENT,
			runsLeft: 3,
			perDayMicrocents: 20 * CENT,
			daysLeft: 2.1,
		});
	});

	it('says nothing of runs for a run that spent nothing, nor of days at a pace of nothing', () => {
		const runway = runwayOf({ remainingMicrocents: CENT, runMicrocents: 0, perDayMicrocents: 0 });
		expect(runway.runsLeft).toBeUndefined();
		expect(runway.daysLeft).toBeUndefined();
		expect(runwayReason(runway)).toBeUndefined();
	});

	it('warns below a week at the pace, not at a week exactly', () => {
		const week = runwayOf({ remainingMicrocents: 7 * CENT, runMicrocents: CENT / 10, perDayMicrocents: CENT });
		const short = runwayOf({ remainingMicrocents: 7 * CENT - 1, runMicrocents: CENT / 10, perDayMicrocents: CENT });
		expect(runwayReason(week)).toBeUndefined();
		expect(runwayReason(short)).toBe('week');
	});

	it('warns below the threshold the user set, not at it, and not without one', () => {
		const at = runwayOf({ remainingMicrocents: 100 * CENT, runMicrocents: CENT });
		const below = runwayOf({ remainingMicrocents: 100 * CENT - 1, runMicrocents: CENT });
		expect(runwayReason(at, 100 * CENT)).toBeUndefined();
		expect(runwayReason(below, 100 * CENT)).toBe('threshold');
		expect(runwayReason(below, 0)).toBeUndefined();
	});

	it('warns when the credit left does not pay for another run like this one, whatever the pace', () => {
		expect(runwayReason(runwayOf({ remainingMicrocents: CENT - 1, runMicrocents: CENT }))).toBe('nextRun');
		expect(runwayReason(runwayOf({ remainingMicrocents: CENT, runMicrocents: CENT }))).toBeUndefined();
	});

	it('turns "Warn Below Credit (USD)" into microcents, and anything not above 0 into no threshold', () => {
		expect(warnBelowMicrocents(1.5)).toBe(150 * CENT);
		expect(warnBelowMicrocents(0)).toBe(0);
		expect(warnBelowMicrocents(-2)).toBe(0);
		expect(warnBelowMicrocents(Number.NaN)).toBe(0);
	});
});

describe('the sentence', () => {
	it('says it in dollars, in runs like this one and in days at the pace, with the top-up address', () => {
		const runway = runwayOf({ remainingMicrocents: 42 * CENT, runMicrocents: 13 * CENT, perDayMicrocents: 20 * CENT });
		expect(runwaySentence(runway, { upgradeUrl: 'https://example.test/pricing' })).toBe(
			"$0.42 left: about 3 more runs like this one, about 2 days at this workflow's pace; top up at https://example.test/pricing",
		);
	});

	it('says only the runs without a pace, and points at the dashboard without an address', () => {
		expect(runwaySentence(runwayOf({ remainingMicrocents: 42 * CENT, runMicrocents: 42 * CENT }))).toBe(
			'$0.42 left: about 1 more run like this one; top up or upgrade in your account dashboard',
		);
	});

	it('says when not even one more run is paid for, and names polls for the trigger', () => {
		expect(runwaySentence(runwayOf({ remainingMicrocents: 0, runMicrocents: 5_790_000, perDayMicrocents: 5_790_000 }), { unit: 'poll' })).toBe(
			'$0 left: not enough for another poll like this one ($0.0579); top up or upgrade in your account dashboard',
		);
	});

	it('gives no sentence when no warning is due', () => {
		expect(runwayWarning(runwayOf({ remainingMicrocents: 500 * CENT, runMicrocents: CENT, perDayMicrocents: CENT }))).toBeUndefined();
	});

	it('rounds time down: days, then hours, then less than an hour', () => {
		expect([6.99, 2, 1.5, 1, 0.99, 1 / 24, 0.5 / 24].map(durationText)).toEqual([
			'about 6 days',
			'about 2 days',
			'about 1 day',
			'about 1 day',
			'about 23 hours',
			'about 1 hour',
			'less than an hour',
		]);
	});

	it('gives the trigger its creditLeft as plain JSON', () => {
		const runway = runwayOf({ remainingMicrocents: 42 * CENT, runMicrocents: 13 * CENT, perDayMicrocents: 20 * CENT });
		expect(creditLeftOf(runway)).toEqual({
			remainingMicrocents: 42 * CENT,
			remainingUsd: 0.42,
			runsLeft: 3,
			daysLeft: 2.1,
			warning: "$0.42 left: about 3 more runs like this one, about 2 days at this workflow's pace; top up or upgrade in your account dashboard",
		});
		expect(creditLeftOf(runwayOf({ remainingMicrocents: 500 * CENT, runMicrocents: 0 }))).toEqual({
			remainingMicrocents: 500 * CENT,
			remainingUsd: 5,
			runsLeft: null,
			daysLeft: null,
			warning: null,
		});
	});

	it('takes only a plain https address as the top-up address: the hint is rendered as HTML', () => {
		expect(safeUpgradeUrl('https://getmany.com.ua/pricing?plan=pro&from=n8n')).toBe('https://getmany.com.ua/pricing?plan=pro&from=n8n');
		for (const bad of ['http://getmany.com.ua/pricing', 'https://x.test/"><script>alert(1)</script>', 'javascript:alert(1)', 'https://x.test/ a', `https://x.test/${'a'.repeat(300)}`, 42]) {
			expect(safeUpgradeUrl(bad)).toBeUndefined();
		}
	});
});
