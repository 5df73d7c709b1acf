import { recordingSleep, takeWaits } from '../support/sleeps';

// The transport's backoffs and 429 waits are recorded, not waited out (the failing day below asks for several).
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

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
// mode over loopback HTTP. Date is faked (the server reads the same clock, so a day of postings
// and polls runs in seconds) and the node's sleeps are recorded: nothing waits in real time, and
// every figure below is deterministic for its seed.

const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };
/** The index as the deployment describes it: batch refreshes, a few stragglers and removals. */
const BATCH = { model: 'batch' as const, postingsPerHour: 40 };
/** Each posting with its own random lag: far more jobs show up after newer ones. */
const RANDOM_LAGS = { model: 'lag' as const, postingsPerHour: 40, minLagMs: MINUTE, maxLagMs: 15 * MINUTE };
// The day with failures uses tiny pages, so that its polls page through bursts and backlogs.
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

const rowsPerJob = (day: DayResult) => day.trigger.rowsPaid / day.trigger.delivered.length;

describe.each([
	[1, 6, 1.3, 6],
	[15, 24, 1.2, 40],
])('polling every %i minutes on the batch-refresh index for %i hours', (every, hours, goal, requests) => {
	let day: DayResult;
	beforeAll(async () => {
		day = await runScriptedDay({ time, seed: 21, hours, pollEvery: [every, every], parameters: VERIFIED_CLIENTS, matches: isVerifiedClient, live: BATCH });
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('delivers every matching job once, none missed', () => {
		expect(day.expected.length).toBeGreaterThan(every === 1 ? 100 : 500);
		expect(day.trigger.duplicates).toEqual([]);
		expect(day.trigger.missed).toEqual([]);
	});

	it(`pays at most ${goal} rows per delivered job and sends at most ${requests} requests a poll on average`, () => {
		expect(rowsPerJob(day)).toBeLessThanOrEqual(goal);
		expect(day.trigger.requests / day.polls).toBeLessThanOrEqual(requests);
	});

	it('delivers at least 95% of jobs on the first poll after the index shows them', () => {
		expect(day.trigger.onFirstPoll / day.trigger.delivered.length).toBeGreaterThanOrEqual(0.95);
	});
});

describe('over a day of random ingestion lags and bursts sharing one millisecond', () => {
	let day: DayResult;
	beforeAll(async () => {
		day = await runScriptedDay({
			time,
			seed: 7,
			hours: 24,
			pollEvery: [2, 30],
			parameters: VERIFIED_CLIENTS,
			matches: isVerifiedClient,
			live: RANDOM_LAGS,
			script: burstEvery(12 * HOUR),
		});
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('emits every visible matching job exactly once across all polls', () => {
		expect(day.expected.length).toBeGreaterThan(500);
		expect(day.trigger.duplicates).toEqual([]);
		expect(day.trigger.missed).toEqual([]);
	});
});

describe('when polls fail in the middle of the day', () => {
	let day: DayResult;
	const burnRateLimit = async (h: Harnessed) => {
		// Sixty free requests (a window in the future matches nothing, so costs nothing) use up the Pro plan's 60 a minute.
		for (let i = 0; i < 60; i++) {
			await axios.post(`${h.server.url}/v1/search_jobs`, { fromDate: '2099-01-01T00:00:00.000Z', limit: 1 }, { headers: { authorization: `Bearer ${h.key}` } });
		}
	};

	let waits: number[] = [];
	beforeAll(async () => {
		takeWaits();
		day = await runScriptedDay({
			time,
			seed: 11,
			hours: 4,
			pollEvery: [8, 12],
			parameters: SMALL_PAGES,
			script: burstEvery(HOUR),
			matches: isVerifiedClient,
			live: RANDOM_LAGS,
			beforePoll: async (h, index) => {
				// Four faults outlast the transport's three retries.
				if (index === 3 || index === 4) h.server.admin.injectFault({ kind: '500', times: 4, tool: 'search_jobs' });
				if (index === 8) h.server.admin.injectFault({ kind: 'drop', times: 4, tool: 'search_jobs' });
				if (index === 12) await burnRateLimit(h);
			},
		});
		waits = takeWaits();
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('fails those polls with the clear error and leaves its state as it was', () => {
		const failed = new Map(day.failures.map((f) => [f.index, f]));
		expect([3, 4, 8, 12].filter((i) => failed.has(i))).toEqual([3, 4, 8, 12]);
		expect(day.failures.every((f) => f.stateUnchanged)).toBe(true);
		expect(failed.get(3)!.error.message).toMatch(/internal fault/i);
		expect(failed.get(8)!.error.message).toMatch(/connection|reach/i);
		expect(failed.get(12)!.error.message).toMatch(/rate limited/i);
		// Polls 3, 4 and 8 each backed off before their three retries (recorded, not waited out).
		expect(waits).toHaveLength(9);
		expect(waits.every((ms) => ms > 0)).toBe(true);
	});

	it('loses nothing: the next good poll delivers what the failed ones missed, once', () => {
		expect(day.trigger.duplicates).toEqual([]);
		expect(day.trigger.missed).toEqual([]);
	});
});

describe('through a 40-minute outage in which the host answers 200 with an HTML page or {}', () => {
	let day: DayResult;
	beforeAll(async () => {
		day = await runScriptedDay({
			time,
			seed: 13,
			hours: 6,
			pollEvery: [5, 5],
			parameters: VERIFIED_CLIENTS,
			matches: isVerifiedClient,
			live: BATCH,
			beforePoll: async (h, index) => {
				// Polls 24 to 31 (two hours in, 40 minutes): every request answers a maintenance page or {}.
				h.server.admin.clearFaults();
				if (index >= 24 && index < 32) h.server.admin.injectFault({ kind: index % 2 ? 'html' : 'empty', times: 50, tool: 'search_jobs' });
			},
		});
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('fails each of those polls with a clear error and keeps its state', () => {
		expect(day.failures.map((f) => f.index)).toEqual([24, 25, 26, 27, 28, 29, 30, 31]);
		expect(day.failures.every((f) => f.stateUnchanged)).toBe(true);
		for (const { error } of day.failures) expect(error.message).toMatch(/not .*service|Base URL|without data/i);
	});

	it('delivers every job posted during the outage afterwards, once', () => {
		expect(day.expected.length).toBeGreaterThan(150);
		expect(day.trigger.duplicates).toEqual([]);
		expect(day.trigger.missed).toEqual([]);
	});
});
