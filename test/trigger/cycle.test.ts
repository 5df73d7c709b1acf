import fc from 'fast-check';

import { runCycle, type CycleSettings } from '../../nodes/JobSearchTrigger/cycle';
import type { FetchPage, PageRequest } from '../../nodes/JobSearchTrigger/pager';
import { pruneSeen, readState, writeState, type TriggerState } from '../../nodes/JobSearchTrigger/state';

// The paging and state rules on their own, against an index kept in an array. The same rules
// run inside n8n against the reference server in poll.test.ts.

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 20, 8, 0, 0);
const ROW_PRICE = 579_000;

interface IndexedJob {
	uid: string;
	createdMs: number;
	visibleMs: number;
}

/** The service's search semantics over an array: inclusive window, newest first, ties uid desc. */
function arrayIndex(jobs: IndexedJob[], clock: { ms: number }) {
	const requests: PageRequest[] = [];
	const fetchPage: FetchPage = async (request) => {
		requests.push(request);
		const rows = jobs
			.filter((j) => j.visibleMs <= clock.ms && j.createdMs >= request.fromMs && (request.toMs === undefined || j.createdMs <= request.toMs))
			.sort((a, b) => b.createdMs - a.createdMs || b.uid.length - a.uid.length || (a.uid < b.uid ? 1 : a.uid > b.uid ? -1 : 0))
			.slice(0, request.limit)
			.map((j) => ({ uid: j.uid, createdAt: new Date(j.createdMs).toISOString() }));
		return { jobs: rows, consumedMicrocents: rows.length * ROW_PRICE, remainingMicrocents: 1e12 };
	};
	return { fetchPage, requests };
}

const settings = (over: Partial<CycleSettings> = {}): CycleSettings => ({
	overlapMs: 20 * MINUTE,
	maxJobsPerPoll: 1000,
	rowsPerRequest: 500,
	budgetMs: 60_000,
	...over,
});

const uids = (items: { uid?: unknown }[]) => items.map((i) => String(i.uid));

describe('a poll cycle', () => {
	it('emits nothing on the first poll and remembers the overlap window it read', async () => {
		const clock = { ms: T0 };
		const jobs = [
			{ uid: '1', createdMs: T0 - 5 * MINUTE, visibleMs: T0 - MINUTE },
			{ uid: '2', createdMs: T0 - 60 * MINUTE, visibleMs: T0 - 50 * MINUTE },
		];
		const { fetchPage, requests } = arrayIndex(jobs, clock);
		const out = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		expect(out.emit).toEqual([]);
		expect(requests).toEqual([{ fromMs: T0 - 20 * MINUTE, toMs: undefined, limit: 500 }]);
		expect([...out.state.seen.keys()]).toEqual(['1']);
		expect(out.state.watermarkMs).toBe(T0);
	});

	it('emits the last hours on the first poll when asked to, newest first', async () => {
		const clock = { ms: T0 };
		const jobs = [1, 2, 3].map((n) => ({ uid: String(n), createdMs: T0 - n * 30 * MINUTE, visibleMs: T0 - 1 }));
		const { fetchPage } = arrayIndex(jobs, clock);
		const out = await runCycle(undefined, settings({ firstPollLookbackMs: 70 * MINUTE }), fetchPage, () => clock.ms);
		expect(uids(out.emit)).toEqual(['1', '2']);
	});

	it('asks only for watermark minus overlap onwards and drops the jobs it has already seen', async () => {
		const clock = { ms: T0 };
		const jobs: IndexedJob[] = [{ uid: '10', createdMs: T0 - 2 * MINUTE, visibleMs: T0 - MINUTE }];
		const { fetchPage, requests } = arrayIndex(jobs, clock);
		const first = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		clock.ms = T0 + 15 * MINUTE;
		jobs.push({ uid: '11', createdMs: T0 - MINUTE, visibleMs: T0 + 10 * MINUTE }, { uid: '12', createdMs: T0 + 5 * MINUTE, visibleMs: T0 + 14 * MINUTE });
		const second = await runCycle(first.state, settings(), fetchPage, () => clock.ms);
		expect(requests[1]).toEqual({ fromMs: T0 - 20 * MINUTE, toMs: undefined, limit: 500 });
		expect(uids(second.emit)).toEqual(['12', '11']);
		expect(second.overlapReReads).toBe(1);
	});

	it('pages back through jobs that share the boundary millisecond without skipping or repeating one', async () => {
		const clock = { ms: T0 };
		const { fetchPage: seedFetch } = arrayIndex([], clock);
		const first = await runCycle(undefined, settings(), seedFetch, () => clock.ms);
		const same = T0 + MINUTE;
		const jobs = Array.from({ length: 23 }, (_, i) => ({ uid: String(100 + i), createdMs: i < 15 ? same : same - i, visibleMs: T0 + 2 * MINUTE }));
		clock.ms = T0 + 3 * MINUTE;
		const { fetchPage, requests } = arrayIndex(jobs, clock);
		const out = await runCycle(first.state, settings({ rowsPerRequest: 4 }), fetchPage, () => clock.ms);
		expect(new Set(uids(out.emit)).size).toBe(23);
		expect(out.emit).toHaveLength(23);
		expect(requests.length).toBeGreaterThanOrEqual(Math.ceil(23 / 4));
		expect(out.read.stopped).toBeUndefined();
	});

	it('keeps what a poll could not read within its row budget and reads it on the next poll, losing nothing', async () => {
		const clock = { ms: T0 };
		const { fetchPage: seedFetch } = arrayIndex([], clock);
		const first = await runCycle(undefined, settings(), seedFetch, () => clock.ms);
		const jobs = Array.from({ length: 25 }, (_, i) => ({ uid: String(200 + i), createdMs: T0 + i * 1000, visibleMs: T0 + 30_000 }));
		clock.ms = T0 + MINUTE;
		const { fetchPage } = arrayIndex(jobs, clock);
		const small = settings({ maxJobsPerPoll: 10, rowsPerRequest: 4 });
		const second = await runCycle(first.state, small, fetchPage, () => clock.ms);
		// Each page starts again at the inclusive boundary it stopped at: 11 rows are 9 jobs.
		expect(second.read.rows).toBe(11);
		expect(second.emit).toHaveLength(9);
		expect(second.state.gap).toEqual({ fromMs: T0 - 20 * MINUTE, toMs: T0 + 16_000 });
		const all = [...second.emit];
		let state = second.state;
		// Later polls also re-read the 20-minute overlap, so a 10-row budget needs a while.
		for (let poll = 0; poll < 30; poll++) {
			clock.ms += MINUTE;
			const next = await runCycle(state, small, fetchPage, () => clock.ms);
			all.push(...next.emit);
			state = next.state;
		}
		expect(state.gap).toBeUndefined();
		expect(new Set(uids(all))).toEqual(new Set(jobs.map((j) => j.uid)));
		expect(all).toHaveLength(25);
	});

	it('stops paging when the time budget is spent and does not advance past what it read', async () => {
		const clock = { ms: T0 };
		const { fetchPage: seedFetch } = arrayIndex([], clock);
		const first = await runCycle(undefined, settings(), seedFetch, () => clock.ms);
		const jobs = Array.from({ length: 12 }, (_, i) => ({ uid: String(300 + i), createdMs: T0 + i * 1000, visibleMs: T0 + 20_000 }));
		clock.ms = T0 + MINUTE;
		const { fetchPage } = arrayIndex(jobs, clock);
		const slow: FetchPage = async (request) => {
			const page = await fetchPage(request);
			clock.ms += 30_000; // each request takes half the one-minute budget
			return page;
		};
		const second = await runCycle(first.state, settings({ rowsPerRequest: 4 }), slow, () => clock.ms);
		expect(second.read.requests).toBe(2);
		expect(uids(second.emit)).toEqual(['311', '310', '309', '308', '307', '306', '305', '304']);
		expect(second.state.gap).toEqual({ fromMs: T0 - 20 * MINUTE, toMs: T0 + 4_000 });
	});

	it('never emits a job twice when the overlap is widened between polls', async () => {
		const clock = { ms: T0 };
		const jobs = [{ uid: '1', createdMs: T0 - 10 * MINUTE, visibleMs: T0 - 5 * MINUTE }];
		const { fetchPage } = arrayIndex(jobs, clock);
		const first = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		clock.ms += 30 * MINUTE;
		jobs.push({ uid: '2', createdMs: T0 - 30 * MINUTE, visibleMs: T0 - 25 * MINUTE });
		const second = await runCycle(first.state, settings({ overlapMs: 120 * MINUTE }), fetchPage, () => clock.ms);
		expect(second.emit).toEqual([]);
	});

	it('fails without touching anything when the first request fails, and keeps what it paid for when a later one fails', async () => {
		const clock = { ms: T0 };
		const jobs = Array.from({ length: 12 }, (_, i) => ({ uid: String(400 + i), createdMs: T0 + i * 1000, visibleMs: T0 + 20_000 }));
		const { fetchPage } = arrayIndex(jobs, clock);
		const first = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		clock.ms = T0 + MINUTE;
		const failing = (okRequests: number): FetchPage => {
			let n = 0;
			return async (request) => {
				if (n++ >= okRequests) throw new Error('The service had an internal error');
				return await fetchPage(request);
			};
		};
		await expect(runCycle(first.state, settings({ rowsPerRequest: 4 }), failing(0), () => clock.ms)).rejects.toThrow('internal error');
		const partial = await runCycle(first.state, settings({ rowsPerRequest: 4 }), failing(1), () => clock.ms);
		expect(uids(partial.emit)).toEqual(['411', '410', '409', '408']);
		expect(partial.read.interruptedBy?.message).toMatch('internal error');
		const rest = await runCycle(partial.state, settings({ rowsPerRequest: 4 }), fetchPage, () => clock.ms);
		expect(uids(rest.emit)).toEqual(['407', '406', '405', '404', '403', '402', '401', '400']);
	});

	it('emits every job that appears after activation exactly once, whatever the lags, page sizes and budgets', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.record({ at: fc.integer({ min: -30, max: 600 }), lag: fc.integer({ min: 0, max: 20 }), tie: fc.boolean() }), { maxLength: 80 }),
				fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 20 }),
				fc.integer({ min: 1, max: 7 }),
				fc.integer({ min: 1, max: 30 }),
				async (postings, gaps, rowsPerRequest, maxJobsPerPoll) => {
					const clock = { ms: T0 };
					const jobs = postings.map((p, i) => {
						const createdMs = T0 + (p.tie ? Math.round(p.at / 10) * 10 : p.at) * MINUTE;
						return { uid: String(1000 + i), createdMs, visibleMs: createdMs + p.lag * MINUTE };
					});
					const { fetchPage } = arrayIndex(jobs, clock);
					const s = settings({ rowsPerRequest, maxJobsPerPoll });
					let state: TriggerState | undefined;
					const emitted: string[] = [];
					// Polls run on until the backlog is gone, as n8n keeps polling.
					const times = [...gaps, ...Array(40).fill(60)];
					for (const gap of [0, ...times]) {
						clock.ms += gap * MINUTE;
						const out = await runCycle(state, s, fetchPage, () => clock.ms);
						emitted.push(...uids(out.emit));
						state = out.state;
					}
					const expected = jobs.filter((j) => j.visibleMs > T0 && j.visibleMs <= clock.ms).map((j) => j.uid);
					expect(emitted.sort()).toEqual(expected.sort());
				},
			),
			{ numRuns: 150 },
		);
	});
});

describe('the stored state', () => {
	it('survives a round trip through static data and replaces what was there', () => {
		const staticData: Record<string, unknown> = { leftover: true };
		const state: TriggerState = { watermarkMs: T0, seenSinceMs: T0 - MINUTE, seen: new Map([['7', T0 - 1]]), gap: { fromMs: T0 - 9, toMs: T0 - 5 } };
		writeState(staticData as never, state);
		expect(staticData.leftover).toBeUndefined();
		expect(readState(JSON.parse(JSON.stringify(staticData)))).toEqual(state);
	});

	it('starts over when the stored state is missing or malformed', () => {
		expect(readState({})).toBeUndefined();
		expect(readState({ version: 1, watermark: 'soon', seenSince: 'x', seen: {} })).toBeUndefined();
		expect(readState({ version: 1, watermark: new Date(T0).toISOString(), seenSince: new Date(T0).toISOString(), seen: { a: 'x' } })).toBeUndefined();
	});

	it('forgets uids older than any later query reaches, and caps the rest keeping the newest', () => {
		const seen = new Map(Array.from({ length: 10 }, (_, i) => [String(i), T0 + i * 1000] as [string, number]));
		const aged = pruneSeen(seen, T0 + 4000, 100);
		expect([...aged.seen.keys()].sort()).toEqual(['4', '5', '6', '7', '8', '9']);
		const capped = pruneSeen(seen, T0, 3);
		expect([...capped.seen.keys()]).toEqual(['9', '8', '7']);
		expect(capped.seenSinceMs).toBe(T0 + 7000);
		expect(capped.capped).toBe(7);
	});
});
