import fc from 'fast-check';

import type { FetchPage } from '../../nodes/JobSearch/paging/reader';
import { runCycle, type CycleSettings } from '../../nodes/JobSearch/trigger/cycle';
import { pruneSeen, readState, writeState, type TriggerState } from '../../nodes/JobSearch/trigger/state';
import { propertyParameters } from '../support/property';
import { MINUTE, arrayIndex, generateIndex, shownAt, type IndexShape, type IndexedJob } from './indexModel';

// The poll rules on their own, against an index kept in an array. The same rules run inside n8n
// against the reference server in poll.test.ts and bench/trigger.bench.ts.

const T0 = Date.UTC(2026, 10, 20, 8, 0, 0);

const settings = (over: Partial<CycleSettings> = {}): CycleSettings => ({
	lateWindowMs: 60 * MINUTE,
	maxJobsPerPoll: 1000,
	rowsPerRequest: 500,
	budgetMs: 60_000,
	...over,
});

const uids = (items: { uid?: unknown }[]) => items.map((i) => String(i.uid));

/** Polls `state` forward at the given minute gaps; returns everything emitted and the last state. */
async function pollAlong(
	state: TriggerState | undefined,
	gapsMinutes: number[],
	s: CycleSettings,
	fetchPage: FetchPage,
	clock: { ms: number },
): Promise<{ emitted: string[]; state: TriggerState | undefined; rows: number }> {
	const emitted: string[] = [];
	let rows = 0;
	for (const gap of gapsMinutes) {
		clock.ms += gap * MINUTE;
		const out = await runCycle(state, s, fetchPage, () => clock.ms);
		emitted.push(...uids(out.emit));
		rows += out.reader.rows;
		state = out.state;
	}
	return { emitted, state, rows };
}

/** Every job shown after activation by the end, exactly once: the trigger's whole promise. */
function expectExactlyOnce(emitted: string[], jobs: IndexedJob[], activationMs: number, endMs: number): void {
	const shownAfter = jobs.filter((j) => j.visibleMs > activationMs && j.visibleMs <= endMs && (j.goneMs === undefined || j.goneMs > endMs));
	const mayAlsoAppear = new Set(jobs.filter((j) => j.visibleMs > activationMs).map((j) => j.uid));
	expect(emitted.length).toBe(new Set(emitted).size);
	for (const job of shownAfter) expect(emitted).toContain(job.uid);
	for (const uid of emitted) expect(mayAlsoAppear.has(uid)).toBe(true);
}

describe('a poll cycle', () => {
	it('emits nothing on the first poll and learns the Late Window it read, whatever Max Jobs per Poll says', async () => {
		const clock = { ms: T0 };
		const jobs = [
			{ uid: '1', createdMs: T0 - 5 * MINUTE, visibleMs: T0 - MINUTE },
			{ uid: '2', createdMs: T0 - 50 * MINUTE, visibleMs: T0 - 40 * MINUTE },
			{ uid: '3', createdMs: T0 - 90 * MINUTE, visibleMs: T0 - 80 * MINUTE },
		];
		const { fetchPage, requests } = arrayIndex(jobs, clock);
		const out = await runCycle(undefined, settings({ maxJobsPerPoll: 1, rowsPerRequest: 1 }), fetchPage, () => clock.ms);
		expect(out.emit).toEqual([]);
		expect(requests[0]).toEqual({ fromMs: T0 - 60 * MINUTE, toMs: undefined, limit: 1 });
		expect([...out.state.seen.keys()].sort()).toEqual(['1', '2']);
		expect(out.state.headMs).toBe(T0 - 5 * MINUTE);
		expect(out.state.settledMs).toBe(T0 - 60 * MINUTE);
	});

	it('emits the last hours on the first poll when asked to, newest first', async () => {
		const clock = { ms: T0 };
		const jobs = [1, 2, 3, 4].map((n) => ({ uid: String(n), createdMs: T0 - n * 30 * MINUTE, visibleMs: T0 - 1 }));
		const { fetchPage } = arrayIndex(jobs, clock);
		const out = await runCycle(undefined, settings({ firstPollLookbackMs: 100 * MINUTE }), fetchPage, () => clock.ms);
		expect(uids(out.emit)).toEqual(['1', '2', '3']);
	});

	it('costs nothing on a poll with nothing new', async () => {
		const clock = { ms: T0 };
		const jobs = [{ uid: '10', createdMs: T0 - 2 * MINUTE, visibleMs: T0 - MINUTE }];
		const { fetchPage, requests } = arrayIndex(jobs, clock);
		const first = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		clock.ms += MINUTE;
		const second = await runCycle(first.state, settings(), fetchPage, () => clock.ms);
		expect(second.reader.rows).toBe(0);
		expect(requests[1]).toEqual({ fromMs: T0 - 2 * MINUTE + 1, toMs: undefined, limit: 500 });
	});

	it('reads only the jobs newer than the newest it has read, and pays once for each', async () => {
		const clock = { ms: T0 };
		const jobs: IndexedJob[] = [{ uid: '10', createdMs: T0 - 2 * MINUTE, visibleMs: T0 - MINUTE }];
		const { fetchPage } = arrayIndex(jobs, clock);
		const first = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		clock.ms = T0 + 5 * MINUTE;
		jobs.push({ uid: '11', createdMs: T0 + MINUTE, visibleMs: T0 + 4 * MINUTE }, { uid: '12', createdMs: T0 + 2 * MINUTE, visibleMs: T0 + 4 * MINUTE });
		const second = await runCycle(first.state, settings(), fetchPage, () => clock.ms);
		expect(uids(second.emit)).toEqual(['12', '11']);
		expect(second.reader.rows).toBe(2);
	});

	it('finds a job the index shows late among many it has read, paying for that job only', async () => {
		const clock = { ms: T0 };
		const jobs: IndexedJob[] = Array.from({ length: 40 }, (_, i) => ({ uid: String(500 + i), createdMs: T0 - 55 * MINUTE + i * MINUTE, visibleMs: T0 - MINUTE }));
		const { fetchPage } = arrayIndex(jobs, clock);
		const first = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		clock.ms = T0 + 16 * MINUTE;
		jobs.push({ uid: '999', createdMs: T0 - 30 * MINUTE - 1, visibleMs: T0 + 10 * MINUTE });
		const second = await runCycle(first.state, settings(), fetchPage, () => clock.ms);
		expect(uids(second.emit)).toEqual(['999']);
		expect(second.late).toBe(1);
		expect(second.swept).toBe(true);
		expect(second.reader.rows).toBe(1);
	});

	it('asks the stretches between the jobs it has read for free: polls with nothing new cost no row', async () => {
		const clock = { ms: T0 };
		const jobs: IndexedJob[] = Array.from({ length: 5 }, (_, i) => ({ uid: String(i + 1), createdMs: T0 - (10 + i) * MINUTE, visibleMs: T0 - MINUTE }));
		const { fetchPage, requests } = arrayIndex(jobs, clock);
		const first = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		const polls = await pollAlong(first.state, Array(30).fill(1), settings(), fetchPage, clock);
		expect(polls.rows).toBe(0);
		// Each of the six stretches around the five jobs is asked at least once per sweep.
		expect(requests.length).toBeGreaterThan(1 + 30 + 6);
	});

	// The count of a window cannot tell a job shown late from another removed in the same window:
	// both leave the count as it was. The earlier design lost such jobs (about 15 in 10,000 on a
	// batch index with 4% stragglers and 3% removals); a sweep asks each stretch on its own.
	it('finds a job shown late although another job of the same stretch of time was removed meanwhile', async () => {
		const clock = { ms: T0 };
		const jobs: IndexedJob[] = Array.from({ length: 10 }, (_, i) => ({ uid: String(100 + i), createdMs: T0 - 40 * MINUTE + i * 3 * MINUTE, visibleMs: T0 - MINUTE }));
		const { fetchPage } = arrayIndex(jobs, clock);
		const first = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		jobs[4].goneMs = T0 + 2 * MINUTE;
		jobs.push({ uid: '999', createdMs: T0 - 26 * MINUTE, visibleMs: T0 + 2 * MINUTE });
		const polls = await pollAlong(first.state, Array(16).fill(1), settings(), fetchPage, clock);
		expect(polls.emitted).toEqual(['999']);
		expect(polls.rows).toBe(1);
	});

	it('neither stalls nor sends a job again when the index removes it and shows it again', async () => {
		const clock = { ms: T0 };
		const jobs: IndexedJob[] = Array.from({ length: 12 }, (_, i) => ({ uid: String(700 + i), createdMs: T0 - 30 * MINUTE + i * MINUTE, visibleMs: T0 - MINUTE }));
		const { fetchPage } = arrayIndex(jobs, clock);
		const first = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		jobs[3].goneMs = T0 + MINUTE;
		const gone = await pollAlong(first.state, [20, 20], settings(), fetchPage, clock);
		expect(gone.emitted).toEqual([]);
		jobs[3].goneMs = undefined;
		jobs[3].visibleMs = clock.ms + MINUTE;
		const back = await pollAlong(gone.state, [20, 20, 20], settings(), fetchPage, clock);
		expect(back.emitted).toEqual([]);
		expect(back.state!.gap).toBeUndefined();
		expect(back.state!.pass).toBeUndefined();
	});

	// Jobs posted after activation, read by the head; the first two share a millisecond, so this index
	// makes ties, and a removal could hide one from a count: removals are tracked here.
	const readAfterActivation = async (n: number, uid0: number) => {
		const clock = { ms: T0 };
		const jobs: IndexedJob[] = Array.from({ length: n }, (_, i) => ({ uid: String(uid0 + i), createdMs: T0 + Math.max(2, i + 1) * MINUTE, visibleMs: T0 + 41 * MINUTE }));
		const { fetchPage } = arrayIndex(jobs, clock);
		const first = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		const read = await pollAlong(first.state, [45], settings(), fetchPage, clock);
		expect(read.emitted).toHaveLength(n);
		return { clock, jobs, fetchPage, state: read.state! };
	};

	// The count that settles the jobs comes with the first sweep that starts a Late Window after them.
	const SETTLING_POLL_MS = T0 + 101 * MINUTE;

	it('finds the one job the index stopped showing among forty it has read, where ties can hide behind it, for a few rows', async () => {
		const { clock, jobs, fetchPage, state } = await readAfterActivation(40, 600);
		jobs[17].goneMs = T0 + 50 * MINUTE;
		clock.ms = SETTLING_POLL_MS;
		const second = await runCycle(state, settings(), fetchPage, () => clock.ms);
		expect(second.swept).toBe(true);
		expect(second.gone).toBe(1);
		expect(second.emit).toEqual([]);
		expect(second.reader.rows).toBeLessThanOrEqual(10);
	});

	it('does not spend rows finding which job was removed where no two jobs share a millisecond', async () => {
		const clock = { ms: T0 };
		const jobs: IndexedJob[] = Array.from({ length: 40 }, (_, i) => ({ uid: String(700 + i), createdMs: T0 + (i + 1) * MINUTE, visibleMs: T0 + 41 * MINUTE }));
		const { fetchPage } = arrayIndex(jobs, clock);
		const first = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		const read = await pollAlong(first.state, [45], settings(), fetchPage, clock);
		jobs[17].goneMs = T0 + 50 * MINUTE;
		clock.ms = SETTLING_POLL_MS;
		const second = await runCycle(read.state!, settings(), fetchPage, () => clock.ms);
		expect(second.swept).toBe(true);
		expect(second.gone).toBe(0);
		expect(second.reader.rows).toBe(1);
	});

	it('marks every job a count covers gone when the index shows none of them any more', async () => {
		const { clock, jobs, fetchPage, state } = await readAfterActivation(5, 650);
		for (const job of jobs) job.goneMs = T0 + 50 * MINUTE;
		clock.ms = SETTLING_POLL_MS;
		const second = await runCycle(state, settings(), fetchPage, () => clock.ms);
		expect(second.swept).toBe(true);
		expect(second.gone).toBe(5);
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
		expect(out.state.gap).toBeUndefined();
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
		expect(second.reader.rows).toBe(11);
		expect(second.emit).toHaveLength(9);
		expect(second.state.gap).toEqual({ fromMs: T0 - 60 * MINUTE, toMs: T0 + 16_000 });
		const rest = await pollAlong(second.state, Array(5).fill(1), small, fetchPage, clock);
		expect(rest.state!.gap).toBeUndefined();
		expect(new Set([...uids(second.emit), ...rest.emitted])).toEqual(new Set(jobs.map((j) => j.uid)));
		expect(second.emit.length + rest.emitted.length).toBe(25);
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
		expect(second.reader.requests).toBe(2);
		expect(uids(second.emit)).toEqual(['311', '310', '309', '308', '307', '306', '305', '304']);
		expect(second.state.gap).toEqual({ fromMs: T0 - 60 * MINUTE, toMs: T0 + 4_000 });
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
		expect(partial.reader.interruptedBy?.message).toMatch('internal error');
		const rest = await runCycle(partial.state, settings({ rowsPerRequest: 4 }), fetchPage, () => clock.ms);
		expect(uids(rest.emit)).toEqual(['407', '406', '405', '404', '403', '402', '401', '400']);
	});

	it('never stalls with one row per poll: the check and the head share the budget and both progress', async () => {
		const clock = { ms: T0 };
		const jobs: IndexedJob[] = [];
		const { fetchPage } = arrayIndex(jobs, clock);
		const first = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		for (let i = 0; i < 6; i++) jobs.push({ uid: String(800 + i), createdMs: T0 + i * 1000, visibleMs: T0 + 10 * MINUTE });
		const polls = await pollAlong(first.state, Array(30).fill(16), settings({ maxJobsPerPoll: 1, rowsPerRequest: 1 }), fetchPage, clock);
		expectExactlyOnce(polls.emitted, jobs, T0, clock.ms);
	});

	// fast-check counterexample of the earlier design (seed 427315916): a silent first poll with a
	// one-row budget forgot the unread part of its window, so a job posted a minute before
	// activation and shown a minute after it was never sent.
	it('sends a job posted just before activation and shown just after, even with one row per poll', async () => {
		const clock = { ms: T0 };
		const jobs: IndexedJob[] = [
			{ uid: '1000', createdMs: T0 - MINUTE, visibleMs: T0 + MINUTE },
			{ uid: '1001', createdMs: T0, visibleMs: T0 },
		];
		const { fetchPage } = arrayIndex(jobs, clock);
		const s = settings({ rowsPerRequest: 1, maxJobsPerPoll: 1 });
		const first = await runCycle(undefined, s, fetchPage, () => clock.ms);
		const polls = await pollAlong(first.state, [1, ...Array(40).fill(60)], s, fetchPage, clock);
		expect(polls.emitted).toEqual(['1000']);
	});

	// The fix of commit 134ed9b: after a count, the head read includes the newest job's millisecond.
	// Two jobs share the newest millisecond; the count's one row is the higher uid, so the lower uid
	// is still unread. A job removed from the check window balances the count, so the check cannot
	// find the lower uid either: only the head read delivers it.
	it('sends the lower-uid job sharing the newest millisecond on the poll that reads the head, though a removal balances the count', async () => {
		const clock = { ms: T0 };
		const newestMs = T0 + 5 * MINUTE;
		const jobs: IndexedJob[] = [
			{ uid: '50', createdMs: T0 - 10 * MINUTE, visibleMs: T0 - 9 * MINUTE, goneMs: T0 + 10 * MINUTE },
			{ uid: '61', createdMs: newestMs, visibleMs: T0 + 6 * MINUTE },
			{ uid: '60', createdMs: newestMs, visibleMs: T0 + 6 * MINUTE },
		];
		const { fetchPage } = arrayIndex(jobs, clock);
		const first = await runCycle(undefined, settings(), fetchPage, () => clock.ms);
		expect(uids(first.emit)).toEqual([]);
		// Due for a check; both new jobs are shown, and the job read at activation is gone.
		clock.ms = T0 + 16 * MINUTE;
		const second = await runCycle(first.state, settings(), fetchPage, () => clock.ms);
		expect(uids(second.emit)).toEqual(['61', '60']);
		const later = await pollAlong(second.state, Array(6).fill(16), settings(), fetchPage, clock);
		expect(later.emitted).toEqual([]);
	});

	const postingsArb = (goneAfter: fc.Arbitrary<number>) =>
		fc.array(
			fc.record({
				at: fc.integer({ min: -60, max: 600 }),
				lag: fc.integer({ min: 0, max: 45 }),
				tie: fc.boolean(),
				goneAfter: fc.option(goneAfter, { freq: 8 }),
			}),
			{ maxLength: 80 },
		);
	type Posting = { at: number; lag: number; tie: boolean; goneAfter: number | null };

	/** `lateTies: false` shows every job that shares its millisecond with another at once (no tie is late). */
	async function simulate(postings: Posting[], gaps: number[], rowsPerRequest: number, maxJobsPerPoll: number, lateTies = true) {
		const clock = { ms: T0 };
		const createdAt = postings.map((p) => T0 + (p.tie ? Math.round(p.at / 10) * 10 : p.at) * MINUTE);
		const jobs: IndexedJob[] = postings.map((p, i) => {
			const createdMs = createdAt[i];
			const tied = createdAt.filter((ms) => ms === createdMs).length > 1;
			const visibleMs = createdMs + (tied && !lateTies ? 0 : p.lag) * MINUTE;
			return { uid: String(1000 + i), createdMs, visibleMs, goneMs: p.goneAfter === null ? undefined : visibleMs + p.goneAfter * MINUTE };
		});
		const { fetchPage } = arrayIndex(jobs, clock);
		const s = settings({ rowsPerRequest, maxJobsPerPoll });
		const first = await runCycle(undefined, s, fetchPage, () => clock.ms);
		// Polls run on until the backlog is gone, as n8n keeps polling.
		const polls = await pollAlong(first.state, [...gaps, ...Array(40).fill(60)], s, fetchPage, clock);
		return { jobs, clock, polls };
	}

	// Soak counterexample (seed 140675691, PROPERTY_SOAK=300): two jobs sharing one millisecond,
	// read one row per poll.
	it('sends both of two jobs posted in the same millisecond when each poll may read one row', async () => {
		const postings: Posting[] = [
			{ at: 325, lag: 0, tie: true, goneAfter: null },
			{ at: 122, lag: 0, tie: false, goneAfter: null },
			{ at: 111, lag: 11, tie: false, goneAfter: null },
			{ at: 115, lag: 2, tie: true, goneAfter: 240 },
			{ at: 325, lag: 0, tie: true, goneAfter: null },
		];
		const { jobs, clock, polls } = await simulate(postings, [1], 1, 1);
		expectExactlyOnce(polls.emitted, jobs, T0, clock.ms);
		expect(polls.state!.gap).toBeUndefined();
	});

	// Soak counterexample (seed 140675691 again, once the one above was fixed): with one row per
	// poll the late-job check never got its rows, its window stayed put for hours, and a removal in
	// it balanced the count of a job shown late.
	it('finds a late job although another job of the window was removed, when each poll may read one row', async () => {
		const postings: Posting[] = [
			{ at: 15, lag: 0, tie: true, goneAfter: null },
			{ at: 0, lag: 0, tie: false, goneAfter: null },
			{ at: 1, lag: 0, tie: false, goneAfter: 240 },
			{ at: 0, lag: 1, tie: false, goneAfter: null },
		];
		const { jobs, clock, polls } = await simulate(postings, [15], 1, 1);
		expectExactlyOnce(polls.emitted, jobs, T0, clock.ms);
		expect(polls.state!.gap).toBeUndefined();
	});

	// The one case DESIGN.md leaves open (found by fixed seed 20261123 against the sweep's first
	// version): a job shown 31 minutes late in the very millisecond of a job already read, and a
	// third job of that stretch removed before it showed. No open stretch holds a tie, and the count
	// cannot tell +1 from -1. The trigger must still never send a job twice, nor stall.
	it('neither repeats nor stalls when a job shown late shares a read job\'s millisecond and another job was removed', async () => {
		const postings: Posting[] = [
			{ at: 371, lag: 0, tie: false, goneAfter: null },
			{ at: 365, lag: 0, tie: true, goneAfter: null },
			{ at: 340, lag: 0, tie: false, goneAfter: 1 },
			{ at: 365, lag: 31, tie: true, goneAfter: null },
		];
		const { polls } = await simulate(postings, [75, 79, 21, 6, 2, 7, 90], 1, 2);
		expect(polls.emitted).toHaveLength(new Set(polls.emitted).size);
		expect(polls.emitted).toEqual(expect.arrayContaining(['1000', '1001', '1002']));
		expect(polls.state!.gap).toBeUndefined();
	});

	// Soak counterexample (seed 154737214, 45,000 runs): a job shown 3 minutes after another posted
	// in the same millisecond, with no count before that millisecond was forgotten. Only a count
	// settles now, so a tie is always counted before it is forgotten.
	it('sends a job shown after another posted in the same millisecond, counting that millisecond before forgetting it', async () => {
		const postings: Posting[] = [
			{ at: 145, lag: 0, tie: true, goneAfter: null },
			{ at: 145, lag: 3, tie: true, goneAfter: null },
		];
		const { jobs, clock, polls } = await simulate(postings, [22, 44, 86, 58, 1], 1, 1);
		expectExactlyOnce(polls.emitted, jobs, T0, clock.ms);
	});

	// Found by the state-size test with a Late Window busier than the uid cap: the cap moved the
	// floor up, the pass under way still started below it, and its count read forgotten jobs again.
	it('never asks below the floor the uid cap moved up, so a forgotten job is not sent twice', async () => {
		const clock = { ms: T0 };
		const jobs: IndexedJob[] = Array.from({ length: 30 }, (_, i) => ({ uid: String(900 + i), createdMs: T0 + (i + 1) * MINUTE, visibleMs: T0 + 31 * MINUTE }));
		const { fetchPage } = arrayIndex(jobs, clock);
		const small = settings({ maxSeenUids: 10 });
		const first = await runCycle(undefined, small, fetchPage, () => clock.ms);
		const polls = await pollAlong(first.state, [32, 1, 1, 1, 61, 61], small, fetchPage, clock);
		expect(polls.emitted).toHaveLength(new Set(polls.emitted).size);
		expect(new Set(polls.emitted).size).toBe(30);
	});

	it('emits every job that appears after activation exactly once, whatever the lags, removals, page sizes and budgets', async () => {
		// Removed jobs here leave the index after the Late Window has passed over them, as closed
		// jobs mostly do; the next property covers removals inside it.
		await fc.assert(
			fc.asyncProperty(
				postingsArb(fc.integer({ min: 240, max: 600 })),
				fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 20 }),
				fc.integer({ min: 1, max: 7 }),
				fc.integer({ min: 1, max: 30 }),
				async (postings, gaps, rowsPerRequest, maxJobsPerPoll) => {
					const { jobs, clock, polls } = await simulate(postings, gaps, rowsPerRequest, maxJobsPerPoll);
					// A job shown and removed between two polls may be missed by any poller: only the
					// ones still shown at the end must have been sent, and nothing twice.
					expectExactlyOnce(polls.emitted, jobs, T0, clock.ms);
					expect(polls.state!.gap).toBeUndefined();
				},
			),
			propertyParameters(150, 20261122),
		);
	});

	it('emits every job exactly once also when jobs are removed soon after they are shown, but for a late tie', async () => {
		// Ties here are never late: a job shown late in the very millisecond of one already read,
		// while another job of its stretch is removed, is the one case counts cannot see (DESIGN.md;
		// the test above pins what the trigger does then). Every other job is exact whatever is removed.
		await fc.assert(
			fc.asyncProperty(
				postingsArb(fc.integer({ min: 1, max: 120 })),
				fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 20 }),
				fc.integer({ min: 1, max: 7 }),
				fc.integer({ min: 1, max: 30 }),
				async (postings, gaps, rowsPerRequest, maxJobsPerPoll) => {
					const { jobs, clock, polls } = await simulate(postings, gaps, rowsPerRequest, maxJobsPerPoll, false);
					expectExactlyOnce(polls.emitted, jobs, T0, clock.ms);
					expect(polls.state!.gap).toBeUndefined();
				},
			),
			propertyParameters(150, 20261123),
		);
	});
});

describe('on the index shapes it cannot see', () => {
	// The shapes: batch refreshes and an index that shows each job 1 to 16 minutes after
	// posting, independently, both with 4% stragglers and 3% of jobs removed within 30 minutes.
	async function pollShape(shape: IndexShape, seed: number, everyMinutes: number, hours: number) {
		const fromMs = T0;
		const toMs = T0 + hours * 60 * MINUTE;
		const jobs = generateIndex({ shape, seed, fromMs, toMs, perHour: 32, stragglerShare: 0.04, removalShare: 0.03, removalWithinMs: 30 * MINUTE });
		const clock = { ms: fromMs };
		const { fetchPage } = arrayIndex(jobs, clock);
		let state: TriggerState | undefined;
		const sentAt = new Map<string, number>();
		const twice: string[] = [];
		const polls: number[] = [];
		for (let t = fromMs; t <= toMs; t += everyMinutes * MINUTE) {
			clock.ms = t;
			polls.push(t);
			const out = await runCycle(state, settings(), fetchPage, () => clock.ms);
			state = out.state;
			for (const uid of uids(out.emit)) {
				if (sentAt.has(uid)) twice.push(uid);
				else sentAt.set(uid, t);
			}
		}
		return { jobs, polls, sentAt, twice, toMs };
	}

	/** Sent once, and at most 16 minutes after the first poll at which the index showed it. */
	function expectSentOnceWithin16Minutes(run: Awaited<ReturnType<typeof pollShape>>): void {
		expect(run.twice).toEqual([]);
		for (const job of run.jobs) {
			if (job.createdMs <= T0 || !shownAt(job, run.toMs) || job.visibleMs > run.toMs - 60 * MINUTE) continue;
			const firstPoll = run.polls.find((p) => p >= job.visibleMs)!;
			const sent = run.sentAt.get(job.uid);
			expect({ uid: job.uid, sent: sent !== undefined }).toEqual({ uid: job.uid, sent: true });
			expect((sent! - firstPoll) / MINUTE).toBeLessThanOrEqual(16);
		}
	}

	it.each<IndexShape>(['batch', 'out-of-order'])('sends every job of the %s index once, within 16 minutes of the poll that could first see it', async (shape) => {
		await fc.assert(
			fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), fc.constantFrom(1, 2, 5, 15, 60), async (seed, every) => {
				expectSentOnceWithin16Minutes(await pollShape(shape, seed, every, 8));
			}),
			propertyParameters(12, shape === 'batch' ? 20261124 : 20261125),
		);
	});
});

describe('the stored state', () => {
	const state: TriggerState = {
		headMs: T0,
		sweptMs: T0 - MINUTE,
		settledMs: T0 - 2 * MINUTE,
		lastPollMs: T0 - 5,
		pace: { latePerHour: 2.5, lastCheckMs: T0 - 7, late: 1, sinceMs: T0 - 8 },
		pass: { startedMs: T0 - 5, fromMs: T0 - 60_000, cursorMs: T0 - 30_000, toMs: T0 - 6 },
		seen: new Map([
			['7', T0 - 1],
			['8', T0 - 2],
		]),
		gone: new Set(['8']),
		gap: { fromMs: T0 - 9, toMs: T0 - 5 },
	};

	it('survives a round trip through static data and replaces what was there', () => {
		const staticData: Record<string, unknown> = { leftover: true };
		writeState(staticData as never, state);
		expect(staticData.leftover).toBeUndefined();
		expect(readState(JSON.parse(JSON.stringify(staticData)))).toEqual(state);
	});

	it('carries on from the earlier stored versions with a sweep of everything they remembered', () => {
		const iso = (ms: number) => new Date(ms).toISOString();
		const v1 = { version: 1, watermark: iso(T0), seenSince: iso(T0 - 20 * MINUTE), seen: { a: T0 - MINUTE } };
		expect(readState(v1)).toEqual({
			headMs: T0 - MINUTE,
			sweptMs: T0 - 20 * MINUTE,
			settledMs: T0 - 20 * MINUTE,
			lastPollMs: 0,
			seen: new Map([['a', T0 - MINUTE]]),
			gone: new Set(),
			pace: { latePerHour: 0, lastCheckMs: 0, late: 0, sinceMs: 0 },
		});
		const v2 = { version: 2, head: iso(T0), checkFrom: iso(T0 - 60 * MINUTE), lastCheck: iso(T0 - 3 * MINUTE), seen: { b: T0 }, gone: ['b', 'x'] };
		expect(readState(v2)).toEqual({
			headMs: T0,
			sweptMs: T0 - 60 * MINUTE,
			settledMs: T0 - 60 * MINUTE,
			lastPollMs: T0 - 3 * MINUTE,
			seen: new Map([['b', T0]]),
			gone: new Set(['b']),
			pace: { latePerHour: 0, lastCheckMs: T0 - 3 * MINUTE, late: 0, sinceMs: T0 - 3 * MINUTE },
		});
	});

	it('keeps keys it does not own, such as the running poll\'s guard, when it writes', () => {
		const staticData: Record<string, unknown> = { running: { id: 'x' }, leftover: true };
		writeState(staticData as never, state, ['running']);
		expect(staticData.running).toEqual({ id: 'x' });
		expect(staticData.leftover).toBeUndefined();
	});

	it('starts over when the stored state is missing or malformed', () => {
		expect(readState({})).toBeUndefined();
		expect(readState({ version: 2, head: 'soon', checkFrom: 'x', lastCheck: 'y', seen: {} })).toBeUndefined();
		const at = new Date(T0).toISOString();
		expect(readState({ version: 2, head: at, checkFrom: at, lastCheck: at, seen: { a: 'x' } })).toBeUndefined();
		const pace = { latePerHour: 1, lastCheck: at, late: 0, since: at };
		expect(readState({ version: 3, head: at, swept: at, settled: at, lastPoll: at, seen: {}, pace })).toBeDefined();
		expect(readState({ version: 3, head: at, swept: at, settled: at, lastPoll: at, seen: {}, pace: { ...pace, latePerHour: -1 } })).toBeUndefined();
		expect(readState({ version: 3, head: at, swept: at, settled: at, lastPoll: at, seen: {}, pace, pass: { started: at } })).toBeUndefined();
	});

	it('forgets uids older than any later query reaches, and caps the rest keeping the newest', () => {
		const seen = new Map(Array.from({ length: 10 }, (_, i) => [String(i), T0 + i * 1000] as [string, number]));
		const aged = pruneSeen(seen, new Set(['1', '5']), T0 + 4000, 100);
		expect([...aged.seen.keys()].sort()).toEqual(['4', '5', '6', '7', '8', '9']);
		expect([...aged.gone]).toEqual(['5']);
		const capped = pruneSeen(seen, new Set(), T0, 3);
		expect([...capped.seen.keys()]).toEqual(['9', '8', '7']);
		expect(capped.sinceMs).toBe(T0 + 7000);
		expect(capped.capped).toBe(7);
	});
});
