import fc from 'fast-check';

import { propertyParameters } from '../support/property';
import { SHAPE_CASES, runCase, type ShapeCase } from '../../bench/triggerShapes';
import { T0, busiestMinute, drive } from './drive';
import { HARSH, HOUR, MINUTE, generateIndex, shownAt, type IndexedJob } from './indexModel';
import { defaultSettings, simulate } from './simulation';
import { INDEX_LAG_GUESS_MS } from '../../nodes/JobSearch/trigger/tunables';

// Properties of the poll cycle over random postings and polls, each with a fixed seed (npm run
// soak runs them many times more from fresh, printed seeds). A counterexample becomes a named
// test in examples.test.ts.

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
	rowsPerRequest: fc.integer({ min: 1, max: 7 }),
	maxJobsPerPoll: fc.integer({ min: 1, max: 30 }),
	requestsPerMinute: fc.constantFrom(1, 5, 60),
	pollTimeMs: fc.constantFrom(36_000, 48_000, 12 * MINUTE),
});

const faultsArb = fc.record({ share429: fc.constantFrom(0, 0, 0.3), share500: fc.constantFrom(0, 0, 0.1) });

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

async function run(postings: Posting[], gaps: number[], settings: typeof settingsArb extends fc.Arbitrary<infer T> ? T : never, faults: { share429: number; share500: number }, lateTies: boolean) {
	const jobs = jobsOf(postings, lateTies);
	const d = drive(jobs, { settings, behaviour: { ...faults, retryAfterMs: 20_000, seed: postings.length + gaps.length, faultsFromMs: T0 + 1 } });
	await d.poll();
	const activationUnfinished = !d.watch || d.watch.pending.some((p) => p.learnBeforeMs !== undefined);
	// Polls run on until the backlog is gone, as n8n keeps polling.
	for (const gap of [...gaps, ...Array(40).fill(60)]) await d.poll(d.clock.ms + gap * MINUTE);
	return { jobs, d, activationUnfinished };
}

/**
 * Every job shown after activation and still shown at the end was sent, once; nothing else was,
 * but for what DESIGN.md allows where the activation read could not finish in its poll: the jobs
 * posted in the index's usual delay before the activation are sent (one of them may have come
 * into view after it, and nothing tells which).
 */
function expectExactlyOnce(sent: string[], jobs: IndexedJob[], endMs: number, activationUnfinished = false): void {
	expect(sent).toHaveLength(new Set(sent).size);
	const owed = jobs.filter((j) => j.visibleMs > T0 && shownAt(j, endMs));
	const fromLagMs = activationUnfinished ? T0 - INDEX_LAG_GUESS_MS : Infinity;
	const mayAppear = new Set(jobs.filter((j) => j.visibleMs > T0 || (j.repost && j.repost.atMs > T0) || j.createdMs >= fromLagMs).map((j) => j.uid));
	for (const job of owed) expect(sent).toContain(job.uid);
	for (const uid of sent) expect(mayAppear.has(uid)).toBe(true);
}

describe('on random postings and polls', () => {
	it('sends every job shown after activation exactly once, whatever the lags, ties, reposts, removals after the window, page sizes, budgets and faults', async () => {
		await fc.assert(
			fc.asyncProperty(
				postingsArb(fc.integer({ min: 240, max: 600 })),
				fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 20 }),
				settingsArb,
				faultsArb,
				async (postings, gaps, settings, faults) => {
					const { jobs, d, activationUnfinished } = await run(postings, gaps, settings, faults, true);
					expectExactlyOnce(d.sent, jobs, d.clock.ms, activationUnfinished);
					expect(d.watch!.pending).toEqual([]);
					// Faults on every third request at one request a minute can last: then a poll may fail.
					if (faults.share429 === 0 && faults.share500 === 0) expect(d.failed).toBe(0);
				},
			),
			propertyParameters(150, 20261122),
		);
	});

	it('sends every job exactly once also when jobs are removed soon after they are shown, but for a late tie', async () => {
		// Ties here are never shown late: a job shown late in the very millisecond of one already
		// read, while another job of its hourly count is removed, before the index ever showed two
		// jobs in one millisecond, is the one case DESIGN.md leaves open.
		await fc.assert(
			fc.asyncProperty(
				postingsArb(fc.integer({ min: 1, max: 120 })),
				fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 20 }),
				settingsArb,
				faultsArb,
				async (postings, gaps, settings, faults) => {
					const { jobs, d, activationUnfinished } = await run(postings, gaps, settings, faults, false);
					expectExactlyOnce(d.sent, jobs, d.clock.ms, activationUnfinished);
					expect(d.watch!.pending).toEqual([]);
				},
			),
			propertyParameters(150, 20261123),
		);
	});

	it('never sends a job twice nor stalls, and keeps within the rate window, whatever is removed and shown late', async () => {
		await fc.assert(
			fc.asyncProperty(
				postingsArb(fc.integer({ min: 1, max: 120 })),
				fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 20 }),
				settingsArb,
				faultsArb,
				async (postings, gaps, settings, faults) => {
					const { d } = await run(postings, gaps, settings, faults, true);
					expect(d.sent).toHaveLength(new Set(d.sent).size);
					expect(d.watch!.pending).toEqual([]);
					const times = d.index.requests.map((r) => r.atMs);
					expect(busiestMinute(times)).toBeLessThanOrEqual(Math.max(10, settings.requestsPerMinute));
				},
			),
			propertyParameters(150, 20261124),
		);
	});
});

describe('on the index shapes it cannot see', () => {
	// Every shape of bench/triggerShapes.ts, for six simulated hours at 1, 5, 15 and 60 minutes.
	const quick = SHAPE_CASES.filter((c) => !c.name.startsWith('busy'));
	it.each(quick.map((c) => [c.name, c] as const))('sends every job of "%s" once, within the key\'s limit, failing no poll', async (_, c) => {
		await fc.assert(
			fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), fc.constantFrom(1, 5, 15, 60), async (seed, every) => {
				const { all } = await runCase(c, every, 0.25, seed);
				for (const f of all) {
					expect(f.duplicates).toEqual([]);
					expect(f.lost).toEqual([]);
					expect(f.peakPerMinute).toBeLessThanOrEqual(10);
					expect(f.failedPolls).toBe(0);
				}
			}),
			propertyParameters(4, 20261125),
		);
	});
});

describe('counterexamples the soak found, kept as they were found', () => {
	// Soak at 300x on a448a7d, and on fb82f43 before it. 1002 is posted again at 440 min, the minute
	// of 1000, which the index shows a minute later: a late tie that looked like chance (no two jobs
	// had been seen in one millisecond). With one request a minute and 500s, the count that settles
	// 440 came after 1003 was removed and matched what was known. Every createdAt is a whole minute:
	// the final looks are now whole reads there.
	it('sends a job posted after two ties, one reposted and the other removed, where every createdAt is a whole minute, with one request a minute and passing faults (soak seed 231826694)', async () => {
		const postings: Posting[] = [
			{ at: 440, lag: 2, tie: false, goneAfter: null, repostAfter: null },
			{ at: 0, lag: 0, tie: false, goneAfter: null, repostAfter: null },
			{ at: 395, lag: 0, tie: true, goneAfter: null, repostAfter: 40 },
			{ at: 295, lag: 22, tie: true, goneAfter: 240, repostAfter: null },
		];
		const { jobs, d, activationUnfinished } = await run(postings, [69, 12], { rowsPerRequest: 1, maxJobsPerPoll: 1, requestsPerMinute: 1, pollTimeMs: 36_000 }, { share429: 0, share500: 0.1 }, true);
		expectExactlyOnce(d.sent, jobs, d.clock.ms, activationUnfinished);
		expect(d.watch!.pending).toEqual([]);
	});

	// Soak at 300x on a448a7d, and on fb82f43 before it, the same case: 1002 is posted again at 270
	// min, the minute of 1001, shown two minutes later; 1000 was removed, and the count matched.
	it('sends every job where a removed job precedes two ties, one reposted, where every createdAt is a whole minute, with one request a minute and passing faults (soak seed 229029002)', async () => {
		const postings: Posting[] = [
			{ at: 75, lag: 38, tie: false, goneAfter: 50, repostAfter: null },
			{ at: 265, lag: 2, tie: true, goneAfter: null, repostAfter: null },
			{ at: 225, lag: 0, tie: true, goneAfter: null, repostAfter: 40 },
		];
		const { jobs, d, activationUnfinished } = await run(postings, [12, 8, 79, 63, 46, 10, 50, 1, 1, 1, 1], { rowsPerRequest: 1, maxJobsPerPoll: 1, requestsPerMinute: 1, pollTimeMs: 36_000 }, { share429: 0, share500: 0.1 }, false);
		expectExactlyOnce(d.sent, jobs, d.clock.ms, activationUnfinished);
		expect(d.watch!.pending).toEqual([]);
	});

	// Soak at 100x on f770a6c, and on d5a8832 before it: three jobs in the activation's very
	// millisecond, one row a request, a 500 that cut the activation read short. The rest of it is
	// read on the next poll, where a job posted in the index's usual delay before the activation
	// cannot be told from one shown after it: it is sent, as DESIGN.md says, rather than risk losing one.
	it('sends once a job of the activation\'s millisecond that an activation read cut short left unread, and no other (soak seed 251113218)', async () => {
		const postings: Posting[] = [0, 1, 2].map(() => ({ at: 0, lag: 0, tie: false, goneAfter: null, repostAfter: null }));
		const { d, activationUnfinished } = await run(postings, [1, 1, 1], { rowsPerRequest: 1, maxJobsPerPoll: 1, requestsPerMinute: 1, pollTimeMs: 36_000 }, { share429: 0, share500: 0.1 }, false);
		expect(activationUnfinished).toBe(true);
		expect(d.sent).toEqual(['1000']);
	});

	const caseNamed = (name: string) => SHAPE_CASES.find((c) => c.name === name)!;
	const expectEveryJobOnce = async (name: string, seed: number) => {
		const { all } = await runCase(caseNamed(name), 1, 0.25, seed);
		for (const f of all) {
			expect(f.lost).toEqual([]);
			expect(f.duplicates).toEqual([]);
			expect(f.failedPolls).toBe(0);
		}
	};

	it('sends a job posted minutes before an activation the service answered 429, and shown after it', async () => {
		// Six jobs posted 2 to 7 minutes before activation, shown 17 s after it: the next poll's
		// first read took them for history.
		await expectEveryJobOnce('a shared key: 30% of requests 429', 74489521);
	});

	it('sends a job posted minutes before activation and shown while the activation poll waited out a 429', async () => {
		// Five jobs posted up to 5 minutes before activation, shown 10 s after it; the activation
		// poll's first request met a 429, waited 20 s and took them for history.
		await expectEveryJobOnce('a shared key: 30% of requests 429', 313942670);
	});

	// A late tie (1001, shown a minute after 1000 in its very millisecond) whose twin is removed four
	// hours later, with requests so scarce (one a minute, 30% answered 429, one row a request) that
	// the count that settles it came only after the removal: it then matched what was known, and
	// the tie was never read. Nothing new came after them, so the settling part never spanned the
	// hour that made its count due: it is now also due an hour past the Late Window where the
	// search is quiet.
	it('sends a late tie whose twin is removed after the Late Window, where requests are too scarce to count before the removal (soak seed 199594629)', async () => {
		const jobs: IndexedJob[] = [
			{ uid: '1000', createdMs: T0 + 220 * MINUTE, visibleMs: T0 + 220 * MINUTE, goneMs: T0 + 460 * MINUTE },
			{ uid: '1001', createdMs: T0 + 220 * MINUTE, visibleMs: T0 + 221 * MINUTE },
		];
		const d = drive(jobs, {
			settings: { rowsPerRequest: 1, maxJobsPerPoll: 1, requestsPerMinute: 1, pollTimeMs: 48_000 },
			behaviour: { share429: 0.3, share500: 0, retryAfterMs: 20_000, seed: 9, faultsFromMs: T0 + 1 },
		});
		await d.poll();
		for (const gap of [1, 66, 46, 51, 54, 1, 1, ...Array(40).fill(60)]) await d.poll(d.clock.ms + gap * MINUTE);
		expect(d.sent.sort()).toEqual(['1000', '1001']);
	});

	// Two jobs in one millisecond at activation (1000, 1001) and a third shown there a minute later
	// (1002, a late tie). 1001 is posted again 20 minutes on, so the window held no two jobs in one
	// millisecond any more: the final looks went stretch by stretch, and the count that settles them
	// met 429s until 1000 was removed, four hours on, and then matched what was known.
	it('sends a late tie whose twin was posted again and whose other twin is removed before the settling count (soak seed 211284054)', async () => {
		const jobs: IndexedJob[] = [
			{ uid: '1000', createdMs: T0, visibleMs: T0, goneMs: T0 + 240 * MINUTE },
			{ uid: '1001', createdMs: T0, visibleMs: T0, repost: { createdMs: T0 + 20 * MINUTE, atMs: T0 + 21 * MINUTE } },
			{ uid: '1002', createdMs: T0, visibleMs: T0 + MINUTE },
		];
		const d = drive(jobs, {
			settings: { rowsPerRequest: 1, maxJobsPerPoll: 1, requestsPerMinute: 1, pollTimeMs: 36_000 },
			behaviour: { share429: 0.3, share500: 0.1, retryAfterMs: 20_000, seed: 5, faultsFromMs: T0 + 1 },
		});
		await d.poll();
		for (const gap of [1, 1, ...Array(40).fill(60)]) await d.poll(d.clock.ms + gap * MINUTE);
		expect(d.sent).toEqual(['1002']);
	});

	it('sends a late tie in the millisecond of the newest job when nothing newer comes, before its twin is removed (soak seed 209043160)', async () => {
		// 1000 shows three minutes after 1001, in its millisecond, the newest of the day; 1001 is
		// removed four hours later. The final looks stood at the head, the settling part spanned 59
		// minutes, and its count waited for an hour's span that never came.
		const jobs: IndexedJob[] = [
			{ uid: '1000', createdMs: T0 + 580 * MINUTE, visibleMs: T0 + 583 * MINUTE },
			{ uid: '1001', createdMs: T0 + 580 * MINUTE, visibleMs: T0 + 580 * MINUTE, goneMs: T0 + 820 * MINUTE },
			{ uid: '1002', createdMs: T0 + 500 * MINUTE, visibleMs: T0 + 500 * MINUTE, repost: { createdMs: T0 + 521 * MINUTE, atMs: T0 + 522 * MINUTE } },
		];
		const d = drive(jobs, { settings: { rowsPerRequest: 1, maxJobsPerPoll: 1, requestsPerMinute: 1, pollTimeMs: 36_000 }, behaviour: { share429: 0, share500: 0, retryAfterMs: 20_000, seed: 11, faultsFromMs: T0 + 1 } });
		await d.poll();
		for (const gap of [35, 89, 63, 43, 51, 16, 25, 20, ...Array(40).fill(60)]) await d.poll(d.clock.ms + gap * MINUTE);
		expect(d.sent.sort()).toEqual(['1000', '1001', '1002']);
	});

	it('reads every search at activation at the same moment, so a job shown seconds after activation is history to none of them', async () => {
		// Three jobs shown 4 s after activation: the second and third searches' activation reads,
		// spaced 6 s apart, took them for history.
		await expectEveryJobOnce('three searches in one trigger (60 an hour, overlapping)', 317247461);
	});

	it('sends a job that comes into view between two searches\' activation reads, although the later search took it for history', async () => {
		// Six jobs shown 0.18 s after activation, between the first search's activation read and the
		// second's (a request takes 250 ms): the second learned one of them, which the first search
		// then found new and held back as known to another search (soak seed 198512502).
		await expectEveryJobOnce('three searches in one trigger (60 an hour, overlapping)', 932402136);
	});

	it('sends a job shown during the activation reads that matches only the search read last: every search\'s activation read goes at once', async () => {
		// Five jobs shown 0.36 s after activation, one of them matching only the third search, whose
		// activation read came 0.5 s after the first (soak seed 204638395).
		await expectEveryJobOnce('three searches in one trigger (60 an hour, overlapping)', 656735589);
	});
});

/** One bench case over `days` (seed 7) at Every `every` Minutes: nothing lost, nothing twice, at most `rows` per job. */
async function expectRowsPerJobAtMost(which: (c: ShapeCase) => boolean, every: number, days: number, rows: number): Promise<void> {
	const { figures } = await runCase(SHAPE_CASES.find(which)!, every, days, 7);
	expect(figures.lost).toEqual([]);
	expect(figures.duplicates).toEqual([]);
	expect(figures.rowsPerJob).toBeLessThanOrEqual(rows);
}

describe('rows where the index makes ties', () => {
	it('pays about two rows a job, not three, where createdAt are whole minutes: late ties are found sooner only with the rows saved for it', async () => {
		// One simulated day (seed 7) at Every 5 Minutes. Counting the young window at the end of every
		// pass and halving down to each late tie paid 2.9 rows a job; the final looks, whole reads
		// there, find every late tie anyway.
		await expectRowsPerJobAtMost((c) => c.name.startsWith('ties'), 5, 1, 2.0);
	});
});

describe('rows where a bulk import comes', () => {
	it('pays at most 1.5 rows per job through two imports of 3,000 jobs at Every 5 Minutes: a count for sooner late jobs reads no more than the rows saved for it, and the import\'s final look reads it whole once', async () => {
		// Three simulated days (seed 7): a young count that reads an import's part whole paid 1.58.
		await expectRowsPerJobAtMost((c) => c.name.startsWith('bursts'), 5, 3, 1.5);
	});
});

describe('rows where the final look reads whole what the head has bought', () => {
	it('pays at most 1.3 rows per job through two imports at Every 15 Minutes: the head leaves an import past its first page for the final look, which buys it once', async () => {
		// Three simulated days (seed 7): the head buying each import whole paid 1.64 (the final look reads it again).
		await expectRowsPerJobAtMost((c) => c.name.startsWith('bursts'), 15, 3, 1.3);
	});

	it('pays at most 1.5 rows per job for a busy search with createdAt in whole seconds at Every 5 Minutes: the head buys ahead of the final look only what its ahead rows allow, and leaves the rest for it', async () => {
		// One simulated day (seed 7): 2.06 where the head bought every job before its final look.
		await expectRowsPerJobAtMost((c) => c.name.startsWith('busy: 1,500'), 5, 1, 1.5);
	});

	it('pays at most 1.6 rows per job for a busy search shown out of order at Every 5 Minutes: the passes that find its late jobs spend the same ahead rows', async () => {
		// One simulated day (seed 7): 1.85 where the passes bought what they found before its final look.
		await expectRowsPerJobAtMost((c) => c.name.startsWith('busy out of order'), 5, 1, 1.6);
	});

	it('pays at most 1.4 rows per job for a busy search with createdAt in whole seconds polled hourly: what the head leaves is read after the final looks reach it, and no count looks inside it before', async () => {
		// Three simulated days (seed 7): 2.01 where the head bought every hour's jobs, 1.43 reading what
		// it left before the final looks reached it, 1.45 counting the young window across it.
		await expectRowsPerJobAtMost((c) => c.name.startsWith('busy: 1,500'), 60, 3, 1.4);
	});
});

describe('rows where requests are scarce', () => {
	it('pays at most 1.3 rows per job at 150 jobs an hour polled hourly: the settling count takes no request from the final looks before it is urgent', async () => {
		// Two simulated days (seed 7). Keeping requests for the count from the start pays about 1.6:
		// the final looks fall further behind and read more parts whole, which settle by themselves.
		await expectRowsPerJobAtMost((c) => c.name === 'batch, 150 an hour', 60, 2, 1.3);
	});
});

describe('a small Max Jobs per Poll', () => {
	it("keeps a busy search whose Max Jobs per Poll barely holds a poll's postings within two hours: a part left for its final look reads what the looks may", async () => {
		// Found in review: read within Max Jobs per Poll, the part a busy search's head left was read
		// a poll's worth at a time, the head waiting behind it: a job 250 minutes late.
		const from = Date.UTC(2026, 10, 20);
		const jobs = generateIndex({ ...HARSH, shape: 'out-of-order', perHour: 1500, roundToMs: 1000, seed: 7, fromMs: from, toMs: from + 12 * HOUR });
		const settings = defaultSettings({ intervalMs: 5 * MINUTE, pollTimeMs: 4 * MINUTE, maxJobsPerPoll: 130 });
		const [f] = await simulate([{ jobs, behaviour: { roundTotals: true, unstableTies: true }, settings, everyMinutes: 5 }], from, from + 24 * HOUR);
		expect(f.duplicates).toEqual([]);
		expect(f.worstDelayMinutes).toBeLessThanOrEqual(120);
	});
});
