import axios from 'axios';

import {
	FAKE_DATE_ONLY,
	HOUR,
	MINUTE,
	VERIFIED_CLIENTS,
	isVerifiedClient,
	runScriptedDay,
	type DayOptions,
	type DayResult,
	type Harnessed,
	type TimeControl,
} from './scriptedDay';

// The trigger inside real n8n-core (a PollContext per poll) against the reference server's live
// mode over loopback HTTP. Only Date is faked: the server reads the same clock, so a day of
// postings and polls runs in seconds.

const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };
const LIVE = { postingsPerHour: 40, minLagMs: MINUTE, maxLagMs: 15 * MINUTE };
// The day runs with the default page size, as users do. The day with failures uses tiny pages,
// so that its polls page through bursts and backlogs; each page boundary re-reads the job it
// stopped at, which is why its credit is not measured.
const SMALL_PAGES = { ...VERIFIED_CLIENTS, options: { rowsPerRequest: 7 } };

/** Now and then, 30 jobs sharing one createdAt, shown at scattered times: more than a small page. */
function burstEvery(periodMs: number): DayOptions['script'] {
	return (h, nowMs, random) => {
		if (Math.floor(nowMs / periodMs) === Math.floor((nowMs - 30 * MINUTE) / periodMs)) return;
		const createdAt = new Date(nowMs - 2 * MINUTE).toISOString();
		h.server.admin.addJobs(
			Array.from({ length: 30 }, () => ({
				createdAt,
				client: { paymentMethodVerified: true },
				visibleAt: nowMs + Math.floor(random() * 14 * MINUTE),
			})),
		);
	};
}

beforeAll(() => jest.useFakeTimers(FAKE_DATE_ONLY));
afterAll(() => jest.useRealTimers());

const duplicates = (uids: string[]) => uids.filter((uid, i) => uids.indexOf(uid) !== i);

describe('over a scripted day of postings with random ingestion lags', () => {
	let day: DayResult;

	beforeAll(async () => {
		day = await runScriptedDay({
			time,
			seed: 7,
			hours: 24,
			pollEvery: [2, 30],
			overlapMinutes: 20,
			parameters: VERIFIED_CLIENTS,
			matches: isVerifiedClient,
			live: LIVE,
			script: burstEvery(12 * HOUR),
		});
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('emits every visible matching job exactly once across all polls', () => {
		expect(day.expected.length).toBeGreaterThan(500);
		expect(duplicates(day.emitted)).toEqual([]);
		expect([...day.emitted].sort()).toEqual([...day.expected].sort());
	});

	it('pays for no more rows than 1.1 × jobs emitted plus the overlap re-reads, far less than polling 24h', () => {
		const bound = 1.1 * day.emitted.length + day.overlapBound;
		console.log(
			[
				`Scripted day: ${day.polls} polls, ${day.emitted.length} jobs emitted.`,
				`Rows paid: ${day.rowsPaid} (bound 1.1 × ${day.emitted.length} + ${day.overlapBound} overlap re-reads = ${Math.floor(bound)}).`,
				`Naive fixed-24h polling at the same times: ${day.naiveRows} rows, ${(day.naiveRows / day.rowsPaid).toFixed(1)}× as many.`,
			].join('\n'),
		);
		expect(day.rowsPaid).toBeLessThanOrEqual(bound);
		expect(day.naiveRows).toBeGreaterThan(5 * day.rowsPaid);
	});
});

describe('when polls fail in the middle of the day', () => {
	let day: DayResult;
	const burnRateLimit = async (h: Harnessed) => {
		// Five free requests (a window in the future matches nothing, so costs nothing) use up the test plan's 5 a minute.
		for (let i = 0; i < 5; i++) {
			await axios.post(`${h.server.url}/v1/search_jobs`, { fromDate: '2099-01-01T00:00:00.000Z', limit: 1 }, { headers: { authorization: `Bearer ${h.key}` } });
		}
	};

	beforeAll(async () => {
		day = await runScriptedDay({
			time,
			seed: 11,
			hours: 4,
			pollEvery: [8, 12],
			overlapMinutes: 20,
			parameters: SMALL_PAGES,
			script: burstEvery(HOUR),
			matches: isVerifiedClient,
			live: LIVE,
			server: { rateLimits: { pro: { requests: 5, windowMs: MINUTE } } },
			beforePoll: async (h, index) => {
				// Four faults outlast the transport's three retries.
				if (index === 3 || index === 4) h.server.admin.injectFault({ kind: '500', times: 4, tool: 'search_jobs' });
				if (index === 8) h.server.admin.injectFault({ kind: 'drop', times: 4, tool: 'search_jobs' });
				if (index === 12) await burnRateLimit(h);
			},
		});
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('fails those polls with the clear error and leaves the watermark and seen set as they were', () => {
		const failed = new Map(day.failures.map((f) => [f.index, f]));
		expect([3, 4, 8, 12].filter((i) => failed.has(i))).toEqual([3, 4, 8, 12]);
		expect(day.failures.every((f) => f.stateUnchanged)).toBe(true);
		expect(failed.get(3)!.error.message).toMatch(/internal error/i);
		expect(failed.get(8)!.error.message).toMatch(/connection|reach/i);
		expect(failed.get(12)!.error.message).toMatch(/rate limited/i);
	});

	it('loses nothing: the next good poll delivers what the failed ones missed, once', () => {
		expect(duplicates(day.emitted)).toEqual([]);
		expect([...day.emitted].sort()).toEqual([...day.expected].sort());
	});
});
