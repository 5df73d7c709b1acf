import { recordingSleep, waitsMoveDate } from '../support/sleeps';

// Every wait the trigger asks for (its request pacing, a 429's Retry-After, the transport's
// backoffs) moves the faked Date on instead of passing in real time.
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import {
	FAKE_DATE_ONLY,
	HOUR,
	MINUTE,
	VERIFIED_CLIENTS,
	isVerifiedClient,
	runScriptedDay,
	type DayOptions,
	peakPerMinute,
	type DayResult,
	type TimeControl,
} from './scriptedDay';
import { fillRateWindow } from './pollHelpers';

// The trigger inside real n8n-core (a PollContext per poll) against the reference server's live
// mode over loopback HTTP. Date is faked (the server reads the same clock, so a day of postings
// and polls runs in seconds) and the node's sleeps are recorded: nothing waits in real time, and
// every figure below is deterministic for its seed.

const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };
/** The index as the deployment describes it: batch refreshes, a few stragglers and removals. */
const BATCH = { model: 'batch' as const, postingsPerHour: 40 };
/** Each posting with its own random lag: far more jobs show up after newer ones. */
const RANDOM_LAGS = { model: 'lag' as const, postingsPerHour: 40, minLagMs: MINUTE, maxLagMs: 15 * MINUTE };
// The day with failures runs on a host that answers at most 40 rows a search, so that its polls
// page through bursts and backlogs in short pages (more than a burst's 30 jobs of one millisecond,
// which no reader could page through with fewer).
const SMALL_PAGES = VERIFIED_CLIENTS;
const PAGE_CAP = 40;

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

beforeAll(() => {
	jest.useFakeTimers(FAKE_DATE_ONLY);
	waitsMoveDate();
});
afterAll(() => jest.useRealTimers());

const rowsPerJob = (day: DayResult) => day.trigger.rowsPaid / day.trigger.delivered.length;

describe.each([
	[1, 4, 1.3, 6],
	[15, 12, 1.2, 40],
])('polling every %i minutes on the batch-refresh index for %i hours', (every, hours, goal, requests) => {
	let day: DayResult;
	beforeAll(async () => {
		day = await runScriptedDay({ time, seed: 21, hours, pollEvery: [every, every], parameters: VERIFIED_CLIENTS, matches: isVerifiedClient, live: BATCH });
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('delivers every matching job once, none missed', () => {
		expect(day.expected.length).toBeGreaterThan(every === 1 ? 60 : 300);
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

	it('never sends more than 10 requests in any 60 seconds, and at most 5 a minute on average (Requests per Minute)', () => {
		const times = day.h.server.admin.callLog(day.h.accountId).map((c) => c.at);
		expect(peakPerMinute(times)).toBeLessThanOrEqual(10);
		expect(times.length).toBeLessThanOrEqual(10 + 5 * (hours * 60));
	});
});

describe('over half a day of random ingestion lags and bursts sharing one millisecond', () => {
	let day: DayResult;
	beforeAll(async () => {
		day = await runScriptedDay({
			time,
			seed: 7,
			hours: 12,
			pollEvery: [2, 30],
			parameters: VERIFIED_CLIENTS,
			matches: isVerifiedClient,
			live: RANDOM_LAGS,
			script: burstEvery(4 * HOUR),
		});
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('emits every visible matching job exactly once across all polls', () => {
		expect(day.expected.length).toBeGreaterThan(300);
		expect(day.trigger.duplicates).toEqual([]);
		expect(day.trigger.missed).toEqual([]);
	});
});

describe('when polls fail in the middle of the day', () => {
	let day: DayResult;
	beforeAll(async () => {
		day = await runScriptedDay({
			time,
			seed: 11,
			hours: 4,
			pollEvery: [8, 12],
			parameters: SMALL_PAGES,
			script: burstEvery(HOUR),
			matches: isVerifiedClient,
			live: RANDOM_LAGS,
			server: { pageCap: PAGE_CAP },
			// The bursts share one millisecond: a job shown late beside them may wait for its final
			// look, a whole read within the Late Window (60 minutes) and 10 more, and a poll.
			settleMs: 85 * MINUTE,
			beforePoll: async (h, index) => {
				// Three faults outlast the transport's two retries in a poll.
				if (index === 3 || index === 4) h.server.admin.injectFault({ kind: '500', times: 3, tool: 'search_jobs' });
				if (index === 8) h.server.admin.injectFault({ kind: 'drop', times: 3, tool: 'search_jobs' });
				// Another workflow uses up the key's minute (a window in the future matches nothing, so costs nothing).
				if (index === 12) await fillRateWindow(h);
			},
		});
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('fails none of those polls: each says in a warning what it met, and the next ones carry on', () => {
		expect(day.failures).toEqual([]);
		const warned = new Map(day.warned.map((w) => [w.index, w.messages.join('\n')]));
		expect([3, 4, 8].filter((i) => warned.has(i))).toEqual([3, 4, 8]);
		expect(warned.get(3)).toMatch(/the service did not answer properly \(The service had an internal fault/);
		expect(warned.get(8)).toMatch(/the service did not answer properly \(Could not reach the service/);
		// The key's minute ends within the poll's 3.2 minutes (Every 8 Minutes): the 429 is waited out.
		expect(warned.has(12)).toBe(false);
		expect(day.h.poller.logs.filter((l) => /; 1 rate limit \(429\) waited out/.test(l.message))).toHaveLength(1);
	});

	it('loses nothing: the next good poll delivers what the failed ones missed, once', () => {
		expect(day.trigger.duplicates).toEqual([]);
		expect(day.trigger.missed).toEqual([]);
	});
});

describe('through a 40-minute outage in which the host answers 200 with an HTML page or {}', () => {
	let day: DayResult;
	const outage = { from: 24, to: 32 };
	beforeAll(async () => {
		day = await runScriptedDay({
			time,
			seed: 13,
			hours: 4,
			pollEvery: [5, 5],
			parameters: VERIFIED_CLIENTS,
			matches: isVerifiedClient,
			live: BATCH,
			beforePoll: async (h, index) => {
				// Polls 24 to 31 (two hours in, 40 minutes): every request answers a maintenance page or {}.
				h.server.admin.clearFaults();
				if (index >= outage.from && index < outage.to) h.server.admin.injectFault({ kind: index % 2 ? 'html' : 'empty', times: 50, tool: 'search_jobs' });
			},
		});
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('fails a poll only once the outage has lasted 30 minutes, once in its 40 minutes, with a clear error, and keeps what it knows', () => {
		const startMs = day.warned.find((w) => w.index === outage.from)!.atMs;
		expect(day.failures.map((f) => f.index)).toEqual([outage.from + 6]);
		for (const failure of day.failures) {
			expect(failure.atMs - startMs).toBeGreaterThanOrEqual(30 * MINUTE);
			expect(failure.error.message).toMatch(/^The host answered 200 but not with the service's response/);
			expect((failure.error as { failure?: { cause?: string } }).failure?.cause).toBe('temporarily-unavailable');
			expect(failure.watchUnchanged).toBe(true);
		}
	});

	it('delivers every job posted during the outage afterwards, once', () => {
		expect(day.expected.length).toBeGreaterThan(80);
		expect(day.trigger.duplicates).toEqual([]);
		expect(day.trigger.missed).toEqual([]);
	});
});
