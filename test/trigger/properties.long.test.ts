import fc from 'fast-check';

import { propertyParameters } from '../support/property';
import { SHAPE_CASES, runCase } from '../../bench/triggerShapes';
import { T0, busiestMinute, drive } from './drive';
import { HOUR, LEFT_OUT_WITHIN_MS, MINUTE, arrayIndex, classifyModelFailure, shownAt, type IndexedJob } from './indexModel';
import { defaultSettings } from './simulation';
import { runSearches } from '../../nodes/JobSearch/trigger/cycle';
import type { TriggerState } from '../../nodes/JobSearch/trigger/state';
import { INDEX_CLOCK_DOUBT_MS } from '../../nodes/JobSearch/trigger/tunables';
import type { IndexBehaviour } from './indexModel';

// Properties of the poll cycle over random postings, polls and hosts, each with a fixed seed (npm run
// soak runs them many times more from fresh, printed seeds). A counterexample becomes a named test
// below. They read what a user sees (the jobs sent, the requests and failed polls), not the state.

interface Posting {
	at: number;
	lag: number;
	tie: boolean;
	goneAfter: number | null;
	repostAfter: number | null;
}

const postingsArb = (goneAfter: fc.Arbitrary<number>) =>
	fc.array(
		fc.record({
			at: fc.integer({ min: -60, max: 600 }),
			lag: fc.integer({ min: 0, max: 45 }),
			tie: fc.boolean(),
			goneAfter: fc.option(goneAfter, { freq: 8 }),
			repostAfter: fc.option(fc.integer({ min: 20, max: 60 }), { freq: 10 }),
		}),
		{ maxLength: 80 },
	);

const settingsArb = fc.record({
	maxJobsPerPoll: fc.integer({ min: 1, max: 30 }),
	requestsPerMinute: fc.constantFrom(1, 5, 60),
	pollTimeMs: fc.constantFrom(36_000, 48_000, 12 * MINUTE),
	delivery: fc.constantFrom('asSoonAsSeen' as const, 'asSoonAsSeen' as const, 'lowestCost' as const),
});

type Settings = typeof settingsArb extends fc.Arbitrary<infer T> ? T : never;

/** Faults that pass, and hosts that deviate from the contract in ordinary ways (a search engine in front of the service). */
const hostArb = fc.record({
	share429: fc.constantFrom(0, 0, 0.3),
	share500: fc.constantFrom(0, 0, 0.1),
	// Not below the most jobs the postings put in one millisecond: no reader can page through those.
	pageCap: fc.option(fc.integer({ min: 5, max: 9 }), { freq: 2 }),
	roundBoundsMs: fc.option(fc.constantFrom(1000, 60_000), { freq: 4 }),
	repeatEvery: fc.option(fc.integer({ min: 2, max: 4 }), { freq: 4 }),
	leaveOutShare: fc.constantFrom(0, 0, 0.05),
	unstableTies: fc.boolean(),
	// The index's clock 10 minutes ahead of n8n's, or 20 behind.
	skewMs: fc.constantFrom(0, 0, -10 * MINUTE, 20 * MINUTE),
});

type Host = Partial<Pick<IndexBehaviour, 'share429' | 'share500' | 'pageCap' | 'roundBoundsMs' | 'repeatEvery' | 'leaveOutShare' | 'unstableTies' | 'skewMs'>>;

const hostBehaviour = (host: { [K in keyof Host]: Host[K] | null }): IndexBehaviour =>
	Object.fromEntries(Object.entries(host).filter(([, v]) => v !== null)) as IndexBehaviour;

/**
 * Jobs from postings: a tie shares a createdAt rounded to ten minutes with others; `lateTies:
 * false` shows every job of a shared millisecond at the same moment (no tie is shown late).
 */
function jobsOf(postings: Posting[], lateTies: boolean): IndexedJob[] {
	const createdAt = postings.map((p) => T0 + (p.tie ? Math.round(p.at / 10) * 10 : p.at) * MINUTE);
	return postings.map((p, i) => {
		const createdMs = createdAt[i];
		const tiedWith = createdAt.map((ms, j) => (ms === createdMs ? j : -1)).filter((j) => j >= 0);
		const lag = lateTies || tiedWith.length === 1 ? p.lag : postings[tiedWith[0]].lag;
		const visibleMs = createdMs + lag * MINUTE;
		const job: IndexedJob = { uid: String(1000 + i), createdMs, visibleMs };
		if (p.goneAfter !== null) job.goneMs = visibleMs + p.goneAfter * MINUTE;
		if (p.repostAfter !== null && p.goneAfter === null) job.repost = { createdMs: createdMs + p.repostAfter * MINUTE, atMs: createdMs + (p.repostAfter + 1) * MINUTE };
		return job;
	});
}

async function run(postings: Posting[], gaps: number[], settings: Partial<Settings>, host: IndexBehaviour, lateTies: boolean) {
	const jobs = jobsOf(postings, lateTies);
	const d = drive(jobs, { settings, behaviour: { ...host, retryAfterMs: 20_000, seed: postings.length + gaps.length, faultsFromMs: T0 + 1 } });
	const first = await d.poll();
	const activationUnfinished = first.learning || first.failure !== undefined;
	// Polls run on until the backlog is gone, as n8n keeps polling.
	for (const gap of [...gaps, ...Array(40).fill(60)]) await d.poll(d.clock.ms + gap * MINUTE);

	return { jobs, d, activationUnfinished };
}

/**
 * Every job shown after activation and still shown at the end was sent, once; nothing else was,
 * but for what DESIGN.md allows where the activation read could not finish in its poll: the jobs
 * posted in the index's usual delay before the activation are sent (one of them may have come
 * into view after it, and nothing tells which); and for a job the host left out of the activation
 * read, which looks new when it shows.
 */
function expectExactlyOnce(sent: string[], jobs: IndexedJob[], endMs: number, activationUnfinished = false, host: IndexBehaviour = {}): void {
	expect(sent).toHaveLength(new Set(sent).size);
	// Jobs' times are the index's: activation and the end are moved onto its clock (not the unfinished
	// activation's allowance: the trigger compares createdAt with its own clock there).
	const skewMs = host.skewMs ?? 0;
	const activatedMs = T0 - skewMs;
	const owed = jobs.filter((j) => j.visibleMs > activatedMs && shownAt(j, endMs - skewMs));
	const fromLagMs = activationUnfinished ? T0 - INDEX_CLOCK_DOUBT_MS : Infinity;
	const shownAfterMs = host.leaveOutShare ? activatedMs - LEFT_OUT_WITHIN_MS : activatedMs;
	const mayAppear = new Set(jobs.filter((j) => j.visibleMs > shownAfterMs || (j.repost && j.repost.atMs > activatedMs) || j.createdMs >= fromLagMs).map((j) => j.uid));
	for (const job of owed) expect(sent).toContain(job.uid);
	for (const uid of sent) expect(mayAppear.has(uid)).toBe(true);
}

const gapsArb = fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 20 });

describe('on random postings, polls and hosts', () => {
	it('sends every job shown after activation exactly once, whatever the lags, ties, reposts, removals after the window, budgets, faults and hosts (rounded bounds, short pages, repeated or left-out rows, shuffled ties, a clock off n8n\'s)', async () => {
		await fc.assert(
			fc.asyncProperty(postingsArb(fc.integer({ min: 240, max: 600 })), gapsArb, settingsArb, hostArb, async (postings, gaps, settings, host) => {
				const { jobs, d, activationUnfinished } = await run(postings, gaps, settings, hostBehaviour(host), true);
				expectExactlyOnce(d.sent, jobs, d.clock.ms, activationUnfinished, hostBehaviour(host));
				// Faults on every third request at one request a minute can last: then a poll may fail.
				if (!host.share429 && !host.share500) expect(d.failed).toBe(0);
			}),
			propertyParameters(150, 20261126),
		);
	});

	it('sends every job exactly once also when jobs are removed soon after they are shown, but for a late tie', async () => {
		// Ties here are never shown late: a job shown late in the very millisecond of one already
		// read, while another job of its hourly count is removed, before the index ever showed two
		// jobs in one millisecond, is the one case DESIGN.md leaves open.
		await fc.assert(
			fc.asyncProperty(postingsArb(fc.integer({ min: 1, max: 120 })), gapsArb, settingsArb, hostArb, async (postings, gaps, settings, host) => {
				const { jobs, d, activationUnfinished } = await run(postings, gaps, settings, hostBehaviour(host), false);
				expectExactlyOnce(d.sent, jobs, d.clock.ms, activationUnfinished, hostBehaviour(host));
			}),
			propertyParameters(150, 20261127),
		);
	});

	it('never sends a job twice and keeps within the rate window, whatever is removed and shown late', async () => {
		await fc.assert(
			fc.asyncProperty(postingsArb(fc.integer({ min: 1, max: 120 })), gapsArb, settingsArb, hostArb, async (postings, gaps, settings, host) => {
				const { d } = await run(postings, gaps, settings, hostBehaviour(host), true);
				expect(d.sent).toHaveLength(new Set(d.sent).size);
				expect(busiestMinute(d.index.requests.map((r) => r.atMs))).toBeLessThanOrEqual(Math.max(10, settings.requestsPerMinute));
			}),
			propertyParameters(150, 20261128),
		);
	});
});

describe('on the index shapes it cannot see', () => {
	// Every shape of bench/triggerShapes.ts but the busiest, for six simulated hours at 1, 5, 15 and 60 minutes.
	const quick = SHAPE_CASES.filter((c) => !c.name.startsWith('busy'));
	it.each(quick.map((c) => [c.name, c] as const))('sends every job of "%s" once, within the key\'s limit, failing no poll', async (_, c) => {
		await fc.assert(
			fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), fc.constantFrom(1, 5, 15, 60), fc.constantFrom('asSoonAsSeen' as const, 'lowestCost' as const), async (seed, every, delivery) => {
				const { all } = await runCase(c, every, 0.25, seed, { delivery });
				for (const f of all) {
					expect(f.duplicates).toEqual([]);
					expect(f.lost).toEqual([]);
					expect(f.peakPerMinute).toBeLessThanOrEqual(10);
					expect(f.failedPolls).toBe(0);
				}
			}),
			propertyParameters(4, 20261129),
		);
	});
});

const SCARCE = { maxJobsPerPoll: 1, requestsPerMinute: 1 as const, pollTimeMs: 36_000 };

describe('counterexamples the soak found, kept as they were found', () => {
	// A host not yet seen to round the bounds answers a one-row final read with a job reposted just past its end: a page
	// with nothing new, taken as a skipped part, and the floor passed it, so the job of that part was never sent. A
	// skipped part now waits for the settling count.
	it('sends a job of a final read the host answered with a row just past its end, before the trigger knew the host rounds the bounds (soak seed 597132257)', async () => {
		const postings: Posting[] = [
			{ at: 0, lag: 1, tie: false, goneAfter: 1, repostAfter: null },
			{ at: 40, lag: 0, tie: false, goneAfter: null, repostAfter: 22 },
			{ at: 0, lag: 0, tie: false, goneAfter: 1, repostAfter: null },
			{ at: 0, lag: 0, tie: false, goneAfter: 1, repostAfter: null },
			{ at: 0, lag: 0, tie: false, goneAfter: null, repostAfter: null },
		];
		const { jobs, d, activationUnfinished } = await run(postings, [1], { ...SCARCE, delivery: 'lowestCost' }, hostBehaviour({ share429: 0.3, share500: 0, pageCap: null, roundBoundsMs: 60_000, repeatEvery: null }), false);
		expectExactlyOnce(d.sent, jobs, d.clock.ms, activationUnfinished);
	});

	// Found when the host arbitrary grew a field (seed 20261126): with Max Jobs per Poll 1 and one request a poll,
	// a part's page had room for the jobs known in its millisecond and one more, and a repeated row took that
	// place on every poll, so the part was bought again each poll and the rest never read. A page makes room for
	// each job at its end twice where the host repeated rows in the last day.
	it.each([
		['As Soon As Seen', 5, 'asSoonAsSeen' as const],
		['Lowest Cost', 3, 'lowestCost' as const],
	])('reads on past a millisecond of several jobs where the host repeats rows and one request a poll goes to it, under %s', async (_, tied, delivery) => {
		const postings: Posting[] = Array.from({ length: tied }, (__, i) => ({ at: 0, lag: i === 0 ? 1 : 0, tie: false, goneAfter: null, repostAfter: null }));
		const { jobs, d, activationUnfinished } = await run(postings, [1], { ...SCARCE, delivery }, { repeatEvery: 2 }, true);
		expectExactlyOnce(d.sent, jobs, d.clock.ms, activationUnfinished);
	});

	// 1002 is posted again at 440 min, the minute of 1000, which the index shows a minute later: a
	// late tie that looked like chance. Every createdAt is a whole minute: final looks read whole.
	it('sends a job posted after two ties, one reposted and the other removed, where every createdAt is a whole minute, with one request a minute and passing faults (soak seed 231826694)', async () => {
		const postings: Posting[] = [
			{ at: 440, lag: 2, tie: false, goneAfter: null, repostAfter: null },
			{ at: 0, lag: 0, tie: false, goneAfter: null, repostAfter: null },
			{ at: 395, lag: 0, tie: true, goneAfter: null, repostAfter: 40 },
			{ at: 295, lag: 22, tie: true, goneAfter: 240, repostAfter: null },
		];
		const { jobs, d, activationUnfinished } = await run(postings, [69, 12], SCARCE, { share500: 0.1 }, true);
		expectExactlyOnce(d.sent, jobs, d.clock.ms, activationUnfinished);
	});

	it('sends every job where a removed job precedes two ties, one reposted, where every createdAt is a whole minute, with one request a minute and passing faults (soak seed 229029002)', async () => {
		const postings: Posting[] = [
			{ at: 75, lag: 38, tie: false, goneAfter: 50, repostAfter: null },
			{ at: 265, lag: 2, tie: true, goneAfter: null, repostAfter: null },
			{ at: 225, lag: 0, tie: true, goneAfter: null, repostAfter: 40 },
		];
		const { jobs, d, activationUnfinished } = await run(postings, [12, 8, 79, 63, 46, 10, 50, 1, 1, 1, 1], SCARCE, { share500: 0.1 }, false);
		expectExactlyOnce(d.sent, jobs, d.clock.ms, activationUnfinished);
	});

	// Max Jobs per Poll 1 and a host that rounds fromDate down to the second: every head read buys
	// the newest known job again (a row outside the range), so the poll's one row went to the head
	// and the part its first head read left (1001) was never read: pending parts waited for rows
	// the head always took, and the final look waited behind them. Rows outside the range asked no
	// longer count against Max Jobs per Poll.
	it('reads the part a head read left where Max Jobs per Poll is 1 and the host rounds the bounds, so every head read buys a known row again (soak seed 441947122)', async () => {
		const postings: Posting[] = [
			{ at: 1, lag: 0, tie: false, goneAfter: null, repostAfter: null },
			{ at: 0, lag: 1, tie: false, goneAfter: null, repostAfter: null },
		];
		const settings: Partial<Settings> = { maxJobsPerPoll: 1, requestsPerMinute: 1, pollTimeMs: 36_000, delivery: 'asSoonAsSeen' };
		const { jobs, d, activationUnfinished } = await run(postings, [1], settings, { roundBoundsMs: 1000 }, true);
		expectExactlyOnce(d.sent, jobs, d.clock.ms, activationUnfinished);
	});

	// An activation read that a 503 cuts short (1,200 jobs in the Late Window: three pages) is read
	// on the next poll, where a job posted in the index's usual delay before the activation cannot
	// be told from one shown after it: it is sent rather than risk losing one (DESIGN.md), and no
	// older one. (Soak seed 251113218 found it with three jobs in one millisecond and one-row pages.)
	it('finishes an activation read a 503 cut short on the next poll, sending only jobs posted in the usual delay before activation', async () => {
		const jobs: IndexedJob[] = Array.from({ length: 1200 }, (_, i) => ({ uid: String(10_000 + i), createdMs: T0 - 20 * MINUTE + i * 1_000, visibleMs: T0 - MINUTE }));
		const d = drive(jobs, { behaviour: { outages: [{ fromMs: T0 + 1, toMs: T0 + 30_000 }] } });
		const first = await d.poll();
		expect(first.learning).toBe(true);
		for (const gap of [1, 1, 1]) await d.poll(d.clock.ms + gap * MINUTE);
		expect(d.sent.length).toBeGreaterThan(300);
		for (const uid of d.sent) expect(jobs.find((j) => j.uid === uid)!.createdMs).toBeGreaterThanOrEqual(T0 - INDEX_CLOCK_DOUBT_MS);
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	const caseNamed = (name: string) => SHAPE_CASES.find((c) => c.name === name)!;
	const expectEveryJobOnce = async (name: string, seed: number, every = 1, delivery: 'asSoonAsSeen' | 'lowestCost' = 'asSoonAsSeen') => {
		const { all } = await runCase(caseNamed(name), every, 0.25, seed, { delivery });
		for (const f of all) {
			expect(f.lost).toEqual([]);
			expect(f.duplicates).toEqual([]);
			expect(f.failedPolls).toBe(0);
		}
	};

	it('sends a job posted minutes before an activation the service answered 429, and shown after it', async () => {
		await expectEveryJobOnce('a shared key: 30% of requests 429', 74489521);
	});

	it('sends a job posted minutes before activation and shown while the activation poll waited out a 429', async () => {
		await expectEveryJobOnce('a shared key: 30% of requests 429', 313942670);
	});

	// A straggler the host left out of its final read (its total counted it) was left to the hourly count, where a known
	// job removed after its own final read made the count match: lost. Such a part is now read whole again an hour later.
	it('sends a straggler the host left out of its final read, where a removal in the same hour would make the count match (soak seed 668750646)', async () => {
		await expectEveryJobOnce('host rounds the bounds and leaves rows out, 150 an hour', 33588606, 5);
	});

	// A final read on a host not yet known to round the bounds ended on a page whose rows reached past its toDate with
	// nothing new (skipped), a job a replica had left out of it, and known jobs removed since: its total had counted the
	// job, but a skipped read was not read again, and the hourly count matched the known jobs less the removed ones. A
	// skipped read that returned fewer jobs than its exact total is now read again like any short look.
	it('sends a job left out of a final read that ended on the first rows a rounding host answered past its toDate (soak seed 687985351)', async () => {
		await expectEveryJobOnce('host rounds the bounds and leaves rows out, 150 an hour', 21270129, 60, 'lowestCost');
	});

	// Reading a short final look again let its floor pass: on a host that writes whole seconds and caps its pages, reading
	// the same part again came short the same way, and three jobs the hourly count would have found were lost. The floor
	// still waits for the count; the reads again come on top.
	it('sends every job of an import a short final look left where the host writes whole seconds and caps its pages, under Lowest Cost (soak seed 674677364)', async () => {
		await expectEveryJobOnce('host writes whole seconds, 100 rows a page; imports of 600', 1, 1, 'lowestCost');
	});

	// A final read on a host not yet seen to round the bounds, with no job known, got a page of one row just past its end,
	// and was skipped; the part was left to the settling count, which a quiet search asks a day later, when the removal
	// of 1000 made it match: 1001 (reposted into that part) was lost. Lowest Cost's look at the index's clock took the
	// poll's other row then; it now asks only for a job newer than the clock it believes, mostly none, and goes last.
	it('sends a job of a final read skipped for a row just past its end, where a removal makes the day\'s count match (soak seed 681621057)', async () => {
		const postings: Posting[] = [
			{ at: 281, lag: 0, tie: false, goneAfter: 240, repostAfter: null },
			{ at: 195, lag: 0, tie: true, goneAfter: null, repostAfter: 21 },
		];
		const settings: Partial<Settings> = { maxJobsPerPoll: 1, requestsPerMinute: 1, pollTimeMs: 36_000, delivery: 'lowestCost' };
		const { jobs, d, activationUnfinished } = await run(postings, [7, 66, 28, 47, 15, 59, 38, 81, 1], settings, { roundBoundsMs: 60_000 }, true);
		expectExactlyOnce(d.sent, jobs, d.clock.ms, activationUnfinished);
	});

	// The host writes createdAt in whole seconds and compares milliseconds: a final read from just past a whole second
	// got, on its last capped page, rows written at that whole second, below the range as written, and ended there;
	// one job of that second beyond the page cap was never read, and the count's reads again ended the same way.
	it('sends every job of an import whose first second a final read began in, where the host writes whole seconds and caps its pages, under Lowest Cost (soak seed 682128040)', async () => {
		await expectEveryJobOnce('host writes whole seconds, 100 rows a page; imports of 600', 144172099, 1, 'lowestCost');
	});

	// A late tie (1001, shown a minute after 1000 in its very millisecond) whose twin is removed four
	// hours later, with requests so scarce that the settling count came only after the removal.
	it('sends a late tie whose twin is removed after the Late Window, where requests are too scarce to count before the removal (soak seed 199594629)', async () => {
		const jobs: IndexedJob[] = [
			{ uid: '1000', createdMs: T0 + 220 * MINUTE, visibleMs: T0 + 220 * MINUTE, goneMs: T0 + 460 * MINUTE },
			{ uid: '1001', createdMs: T0 + 220 * MINUTE, visibleMs: T0 + 221 * MINUTE },
		];
		const d = drive(jobs, {
			settings: { maxJobsPerPoll: 1, requestsPerMinute: 1, pollTimeMs: 48_000 },
			behaviour: { share429: 0.3, retryAfterMs: 20_000, seed: 9, faultsFromMs: T0 + 1 },
		});
		await d.poll();
		for (const gap of [1, 66, 46, 51, 54, 1, 1, ...Array(40).fill(60)]) await d.poll(d.clock.ms + gap * MINUTE);
		expect(d.sent.sort()).toEqual(['1000', '1001']);
	});

	it('sends a late tie whose twin was posted again and whose other twin is removed before the settling count (soak seed 211284054)', async () => {
		const jobs: IndexedJob[] = [
			{ uid: '1000', createdMs: T0, visibleMs: T0, goneMs: T0 + 240 * MINUTE },
			{ uid: '1001', createdMs: T0, visibleMs: T0, repost: { createdMs: T0 + 20 * MINUTE, atMs: T0 + 21 * MINUTE } },
			{ uid: '1002', createdMs: T0, visibleMs: T0 + MINUTE },
		];
		const d = drive(jobs, { settings: SCARCE, behaviour: { share429: 0.3, share500: 0.1, retryAfterMs: 20_000, seed: 5, faultsFromMs: T0 + 1 } });
		await d.poll();
		for (const gap of [1, 1, ...Array(40).fill(60)]) await d.poll(d.clock.ms + gap * MINUTE);
		expect(d.sent).toEqual(['1002']);
	});

	it('sends a late tie in the millisecond of the newest job when nothing newer comes, before its twin is removed (soak seed 209043160)', async () => {
		const jobs: IndexedJob[] = [
			{ uid: '1000', createdMs: T0 + 580 * MINUTE, visibleMs: T0 + 583 * MINUTE },
			{ uid: '1001', createdMs: T0 + 580 * MINUTE, visibleMs: T0 + 580 * MINUTE, goneMs: T0 + 820 * MINUTE },
			{ uid: '1002', createdMs: T0 + 500 * MINUTE, visibleMs: T0 + 500 * MINUTE, repost: { createdMs: T0 + 521 * MINUTE, atMs: T0 + 522 * MINUTE } },
		];
		const d = drive(jobs, { settings: SCARCE, behaviour: { seed: 11 } });
		await d.poll();
		for (const gap of [35, 89, 63, 43, 51, 16, 25, 20, ...Array(40).fill(60)]) await d.poll(d.clock.ms + gap * MINUTE);
		expect(d.sent.sort()).toEqual(['1000', '1001', '1002']);
	});

	it('reads every search at activation at the same moment, so a job shown seconds after activation is history to none of them', async () => {
		await expectEveryJobOnce('three searches in one trigger (60 an hour, overlapping)', 317247461);
	});

	it("sends a job that comes into view between two searches' activation reads, although the later search took it for history", async () => {
		await expectEveryJobOnce('three searches in one trigger (60 an hour, overlapping)', 932402136);
	});

	it('sends a job shown during the activation reads that matches only the search read last: every search\'s activation read goes at once', async () => {
		await expectEveryJobOnce('three searches in one trigger (60 an hour, overlapping)', 656735589);
	});
});

describe('on random changes to several searches', () => {
	// Four searches, each matching some jobs and seeing each one up to 40 minutes after the others (replicas),
	// some jobs posted again; at each poll the user may have added or removed searches (an edit is both).
	const jobArb = fc.record({
		at: fc.integer({ min: -60, max: 480 }),
		lag: fc.integer({ min: 0, max: 45 }),
		repostAfter: fc.option(fc.integer({ min: 20, max: 180 }), { freq: 6 }),
		matches: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
		viewLag: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 4, maxLength: 4 }),
	});
	const keysArb = fc.subarray(['A', 'B', 'C', 'D'], { minLength: 1 });
	const changesArb = fc.array(fc.record({ poll: fc.integer({ min: 1, max: 60 }), keys: keysArb }), { maxLength: 6 });

	it('sends every job a search sees after it was added, once, whatever searches are added, edited or removed and whenever each sees the job', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(jobArb, { maxLength: 60 }), keysArb, changesArb, settingsArb, fc.constantFrom(15, 25, 10_000), async (postings, firstKeys, changes, settings, maxSeenUids) => {
				const clock = { ms: T0 };
				const createdMsOf = (i: number) => T0 + postings[i].at * MINUTE + i;
				const visibleMsOf = (i: number, key: number) => createdMsOf(i) + (postings[i].lag + postings[i].viewLag[key]) * MINUTE;
				const viewOf = (key: number) =>
					postings.flatMap((p, i): IndexedJob[] => {
						if (!p.matches[key]) return [];
						const createdMs = createdMsOf(i);
						return [{ uid: String(1000 + i), createdMs, visibleMs: visibleMsOf(i, key), ...(p.repostAfter === null ? {} : { repost: { createdMs: createdMs + p.repostAfter * MINUTE, atMs: createdMs + (p.repostAfter + 1) * MINUTE } }) }];
					});
				const indexes = new Map(['A', 'B', 'C', 'D'].map((key, k) => [key, arrayIndex(viewOf(k), clock)]));
				let state: TriggerState | undefined;
				let keys = firstKeys;
				const sent: string[] = [];
				// When each search was last added (n8n's clock at the start of that poll).
				const addedMs = new Map<string, number>();
				for (let poll = 0; poll < 80; poll++) {
					clock.ms = Math.max(clock.ms, T0 + poll * 10 * MINUTE);
					const next = changes.find((c) => c.poll === poll)?.keys ?? keys;
					for (const key of next) if (poll === 0 || !keys.includes(key)) addedMs.set(key, clock.ms);
					keys = next;
					const out = await runSearches(state, keys.map((key) => ({ key, fetchPage: indexes.get(key)!.fetchPage })), defaultSettings({ ...settings, intervalMs: 10 * MINUTE, maxSeenUids }), {
						now: () => clock.ms,
						sleep: async (ms) => void (clock.ms += ms),
						classify: classifyModelFailure,
					});
					state = out.state;
					sent.push(...out.emit.map((job) => String(job.uid)));
				}
				expect(sent.filter((uid, i) => sent.indexOf(uid) !== i)).toEqual([]);
				// Owed: a job a search kept to the end sees within the Late Window, after it was added, with hours left to
				// find it (the uid cap, 15 or 25 here, may lose jobs: logged, not owed).
				if (maxSeenUids < 10_000) return;
				const owed = postings.flatMap((p, i) =>
					keys.some((key) => {
						const k = ['A', 'B', 'C', 'D'].indexOf(key);
						const visibleMs = visibleMsOf(i, k);
						return p.matches[k] && visibleMs - createdMsOf(i) <= 50 * MINUTE && visibleMs > addedMs.get(key)! + MINUTE && visibleMs < clock.ms - 3 * HOUR;
					})
						? [String(1000 + i)]
						: [],
				);
				expect(owed.filter((uid) => !sent.includes(uid))).toEqual([]);
			}),
			propertyParameters(100, 20261130),
		);
	});
});
