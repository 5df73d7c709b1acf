import type { IDataObject } from 'n8n-workflow';

import { Reader, type PageRequest } from '../../nodes/JobSearch/paging/reader';
import { writeState, type TriggerState } from '../../nodes/JobSearch/trigger/state';
import { T0, busiestMinute, drive, uidsOf } from './drive';
import { HARSH, HOUR, MINUTE, ModelFailure, arrayIndex, generateIndex, type IndexBehaviour, type IndexedJob } from './indexModel';
import { defaultSettings, pollTimeFor, simulate, type SimFigures } from './simulation';
import type { CycleSettings } from '../../nodes/JobSearch/trigger/cycle';
import { SHAPE_CASES, runCase } from '../../bench/triggerShapes';

// Each rule of DESIGN.md with an example that fails without it, and the hosts that deviate from
// the contract in ordinary ways. Only what a user sees is read: the jobs sent, when, the requests
// and rows the service billed, and failed executions.

const job = (uid: number, createdMs: number, visibleMs: number, more: Partial<IndexedJob> = {}): IndexedJob => ({ uid: String(uid), createdMs, visibleMs, ...more });

/** A job every `gapMs` from `fromMs` to `toMs`, each shown `lagMs` after it is posted, createdAt `plusMs` past the whole second. */
const steady = (fromMs: number, toMs: number, gapMs: number, lagMs = MINUTE, plusMs = 417): IndexedJob[] => {
	const jobs: IndexedJob[] = [];
	for (let t = fromMs, i = 0; t < toMs; t += gapMs, i++) jobs.push(job(5000 + i, Math.floor(t / 1000) * 1000 + plusMs, t + lagMs));
	return jobs;
};

/** Polls every `minutes` for `hours` after activation. */
async function run(jobs: IndexedJob[], hours: number, settings: Partial<CycleSettings> = {}, behaviour: IndexBehaviour = {}, minutes = 1) {
	const d = drive(jobs, { settings, behaviour });
	await d.poll();
	await d.pollUntil(T0 + hours * HOUR, minutes);
	return d;
}

const sentAt = (d: ReturnType<typeof drive>) => d.sent;

/** A host whose `total` always counts `more` jobs than its pages return. */
function countsMore(d: ReturnType<typeof drive>, more: number): void {
	const honest = d.index.fetchPage;
	(d.index as { fetchPage: typeof honest }).fetchPage = async (request: PageRequest) => {
		const page = await honest(request);
		return { ...page, total: page.total + more };
	};
}

/** A replica behind for 50 minutes after `late` shows: its pages leave it out, its total counts it. */
function leaveOutFor50Minutes(d: ReturnType<typeof drive>, late: IndexedJob): void {
	const honest = d.index.fetchPage;
	(d.index as { fetchPage: typeof honest }).fetchPage = async (request: PageRequest) => {
		const page = await honest(request);
		return d.clock.ms < late.visibleMs + 50 * MINUTE ? { ...page, jobs: page.jobs.filter((j) => j.uid !== late.uid) } : page;
	};
}

/** Lowest Cost, whose final reads 8 more jobs in a minute (cut short at Max Jobs per Poll 2); a replica leaves `late` out for 50 minutes, and a known job of that hour is removed later. */
function finalReadBehindReplica(behaviour: IndexBehaviour = {}, maxJobsPerPoll = 2) {
	const jobs = steady(T0 - 30 * MINUTE, T0 + 5 * HOUR, MINUTE);
	jobs.push(...Array.from({ length: 8 }, (_, i) => job(7000 + i, T0 + 90 * MINUTE + 5_000 + i * 7_000 + 3, T0 + 91 * MINUTE)));
	const late = job(99_001, T0 + 90 * MINUTE + 25_123, T0 + 135 * MINUTE);
	jobs.push(late);
	jobs.find((j) => j.createdMs === T0 + 92 * MINUTE + 417)!.goneMs = T0 + 200 * MINUTE;
	const d = drive(jobs, { settings: { delivery: 'lowestCost', maxJobsPerPoll }, behaviour });
	leaveOutFor50Minutes(d, late);
	return { d, late };
}

/** Polls Lowest Cost every minute for `hours`: how long past its Late Window the latest job created in (fromMs, toMs) and never removed came (each must come), the rows paid and the jobs sent. */
async function lowestCostPastLateWindow(jobs: IndexedJob[], hours: number, fromMs: number, toMs: number) {
	const d = drive(jobs, { settings: { delivery: 'lowestCost' } });
	await d.poll();
	const sentAtMs = new Map<string, number>();
	for (let t = T0 + MINUTE; t <= T0 + hours * HOUR; t += MINUTE) for (const item of (await d.poll(t)).emit) sentAtMs.set(String(item.uid), t);
	const watched = jobs.filter((j) => j.createdMs > fromMs && j.createdMs < toMs && j.goneMs === undefined);
	expect(watched.filter((j) => !sentAtMs.has(j.uid))).toEqual([]);
	return { pastMs: Math.max(...watched.map((j) => sentAtMs.get(j.uid)! - (j.createdMs + HOUR))), rows: d.index.rows(), sent: sentAtMs.size };
}

/** One simulated day of a bench shape at Every `every` Minutes. */
async function day(shape: Parameters<typeof generateIndex>[0] extends infer O ? Partial<O> : never, behaviour: IndexBehaviour, every: number, settings: Partial<CycleSettings> = {}): Promise<SimFigures> {
	const from = Date.UTC(2026, 10, 20);
	const jobs = generateIndex({ ...HARSH, shape: 'batch', perHour: 40, seed: 7, fromMs: from, toMs: from + 24 * HOUR, ...shape });
	const [f] = await simulate([{ jobs, behaviour, settings: defaultSettings({ intervalMs: every * MINUTE, ...settings }), everyMinutes: every }], from, from + 24 * HOUR);
	return f;
}

const expectOnceWithinTheKey = (f: SimFigures) => {
	expect(f.lost).toEqual([]);
	expect(f.duplicates).toEqual([]);
	expect(f.failedPolls).toBe(0);
	expect(f.peakPerMinute).toBeLessThanOrEqual(10);
};

describe('a job shown late in the millisecond of a known one (a late tie)', () => {
	it('is found by the settling count where createdAt are a few milliseconds past the whole minute', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 3 * HOUR, 5 * MINUTE, MINUTE, 60_003 - 1000);
		const twin = jobs.find((j) => j.createdMs > T0 + HOUR)!;
		jobs.push(job(9001, twin.createdMs, twin.createdMs + 30 * MINUTE));
		const d = await run(jobs, 6);
		expect(sentAt(d)).toContain('9001');
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	// Such a host says 1,000 of a part of some 1,100 known jobs, fewer than it knows: only a whole read can tell.
	it('is found by the settling count where the host rounds a count of more than a thousand jobs down to the thousand', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 3 * HOUR, 3_000);
		const twin = jobs.find((j) => j.createdMs > T0 + HOUR)!;
		jobs.push(job(99_004, twin.createdMs, twin.createdMs + 30 * MINUTE));
		const d = await run(jobs, 4, { requestsPerMinute: 600 }, { roundTotals: true });
		expect(sentAt(d)).toContain('99004');
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	// A whole read marks the known jobs it did not return as gone: without that, a job removed after its head read would
	// hide from the count a late job that a page of that read left out (lost).
	it('is found by the settling count where a page of its final read left it out and a known job of that part was removed', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 5 * HOUR, 5 * MINUTE, MINUTE, 0);
		const removed = jobs.find((j) => j.createdMs === T0 + 80 * MINUTE)!;
		removed.goneMs = T0 + 100 * MINUTE;
		const twin = jobs.find((j) => j.createdMs === T0 + 70 * MINUTE)!;
		jobs.push(job(99_005, twin.createdMs, twin.createdMs + 40 * MINUTE));
		const d = drive(jobs);
		const honest = d.index.fetchPage;
		// A replica behind until 2:20 after activation: its pages leave the late job out, its total counts it.
		(d.index as { fetchPage: typeof honest }).fetchPage = async (request: PageRequest) => {
			const page = await honest(request);
			return d.clock.ms < T0 + 140 * MINUTE ? { ...page, jobs: page.jobs.filter((j) => j.uid !== '99005') } : page;
		};
		await d.poll();
		await d.pollUntil(T0 + 6 * HOUR);
		expect(d.sent).toContain('99005');
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	// Found by a sweep: a young look's page left out a job that shares a millisecond with one it brought; the final look asks
	// no known millisecond, and a removal hid it from the count (lost). A young look that reads short is read again, as a final look.
	it('is found where a young look brought a job of its millisecond while a replica left it out, and a known job of that hour was removed', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 5 * HOUR, 5 * MINUTE);
		const atMs = T0 + 72 * MINUTE + 30_123;
		const [shown, left] = [job(99_010, atMs, atMs + 10 * MINUTE), job(99_011, atMs, atMs + 10 * MINUTE)];
		jobs.push(shown, left);
		jobs.find((j) => j.createdMs > T0 + 80 * MINUTE)!.goneMs = T0 + 100 * MINUTE;
		const d = drive(jobs);
		const honest = d.index.fetchPage;
		(d.index as { fetchPage: typeof honest }).fetchPage = async (request: PageRequest) => {
			const page = await honest(request);
			return d.clock.ms < left.visibleMs + 30 * MINUTE ? { ...page, jobs: page.jobs.filter((j) => j.uid !== left.uid) } : page;
		};
		await d.poll();
		await d.pollUntil(T0 + 6 * HOUR);
		expect(d.sent).toEqual(expect.arrayContaining([shown.uid, left.uid]));
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	// Found by a review: the settling count finds the late job minutes after it shows, where a replica leaves it out of
	// the count's whole read (for less than an hour: DESIGN.md, assumption 3); that read came short, and the floor passed
	// it (lost). It is read again next poll and an hour later, like a short final look.
	it('is found where the settling count that counted it read its part whole while a replica left it out for 50 minutes', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 5 * HOUR, 5 * MINUTE);
		const twin = jobs.find((j) => j.createdMs > T0 + 155 * MINUTE)!;
		const late = job(99_007, twin.createdMs, twin.createdMs + 59 * MINUTE);
		jobs.push(late);
		const d = drive(jobs);
		leaveOutFor50Minutes(d, late);
		await d.poll();
		await d.pollUntil(T0 + 6 * HOUR);
		expect(d.sent).toContain(late.uid);
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	// Found by a review: the page at the millisecond where the last one ended brought only those 20 jobs, read already and
	// short of what it asked; the read ended there, and every job below it was lost.
	it.each([
		['As Soon As Seen', {}],
		['Lowest Cost', { delivery: 'lowestCost' as const }],
	])('sends the job a millisecond below 20 that share one, where the host answers at most 20 rows a page, under %s', async (_, settings) => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 6 * HOUR, 3 * MINUTE);
		const tieMs = T0 + 2 * HOUR + 30_123;
		const below = job(300_000, tieMs - 1, tieMs + 2 * MINUTE);
		jobs.push(...Array.from({ length: 20 }, (_, i) => job(200_000 + i, tieMs, tieMs + 2 * MINUTE)), below);
		const d = await run(jobs, 8, settings, { pageCap: 20 });
		expect(d.sent).toContain(below.uid);
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	// Found by reading DESIGN.md against the code: a whole read whose total was a round figure (whole thousands) let `floor`
	// pass it, so no count checked what a replica left out of it.
	it('sends a job a replica left out of a final look of more than a thousand jobs, where the host rounds its totals, under Lowest Cost at Every 60 Minutes', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 5 * HOUR, 3_000);
		const late = job(99_008, T0 + 110 * MINUTE + 30_123, T0 + 165 * MINUTE);
		jobs.push(late);
		const d = drive(jobs, { settings: { delivery: 'lowestCost', intervalMs: HOUR }, behaviour: { roundTotals: true } });
		leaveOutFor50Minutes(d, late);
		await d.poll();
		await d.pollUntil(T0 + 8 * HOUR, 60);
		expect(d.sent).toContain(late.uid);
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	// The settling count checks what such reads passed in parts below a thousand known jobs, which the host counts exactly:
	// a round count would be read whole again.
	it('pays under 1.3 rows a job, activation included, under Lowest Cost at Every 60 Minutes on a search of 1,200 jobs an hour whose totals the host rounds', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 8 * HOUR, 3_000);
		const d = await run(jobs, 8, { delivery: 'lowestCost', intervalMs: HOUR }, { roundTotals: true }, 60);
		expect(d.index.rows() / d.sent.length).toBeLessThan(1.3);
	});

	// Found by the soak (seed 668750646): a final look that left out a job its total counted was left to the count, where a
	// known job removed after its own final look made the count match (lost). It is read whole again an hour later, when a
	// job left out for less than an hour (DESIGN.md, assumption 3) must come: a read at the next poll would miss it here.
	it.each([
		['As Soon As Seen', {}],
		['Lowest Cost', { delivery: 'lowestCost' as const }],
	])('sends a job its final look left out for 50 minutes, where a known job of that hour is removed after its own, under %s', async (_, settings) => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 5 * HOUR, 5 * MINUTE);
		const late = job(99_006, T0 + 70 * MINUTE + 30_123, T0 + 110 * MINUTE);
		jobs.push(late);
		jobs.find((j) => j.createdMs === T0 + 80 * MINUTE + 417)!.goneMs = T0 + 160 * MINUTE;
		const d = drive(jobs, { settings });
		leaveOutFor50Minutes(d, late);
		await d.poll();
		await d.pollUntil(T0 + 6 * HOUR);
		expect(d.sent).toContain(late.uid);
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	// Found by a review: the same where Max Jobs per Poll 1 has Lowest Cost read its final looks a row a poll.
	it('sends a job its final look left out for 50 minutes, where a known job of that hour is removed later and Lowest Cost reads a row a poll', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 5 * HOUR, 5 * MINUTE);
		const late = job(99_006, T0 + 63 * MINUTE + 30_123, T0 + 103 * MINUTE);
		jobs.push(late);
		jobs.find((j) => j.createdMs === T0 + 75 * MINUTE + 417)!.goneMs = T0 + 160 * MINUTE;
		const d = drive(jobs, { settings: { delivery: 'lowestCost', maxJobsPerPoll: 1, intervalMs: 5 * MINUTE } });
		leaveOutFor50Minutes(d, late);
		await d.poll();
		await d.pollUntil(T0 + 24 * HOUR, 5);
		expect(d.sent).toContain(late.uid);
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	// Found by a review: a page of a final read that Max Jobs per Poll cut short left the job out, and the read's rest began
	// below it, so no read came short of its total; the count matched where a known job of that hour was removed later.
	// Found by a sweep, on a host that rounds the bounds: a cut read's rest kept no `owed` (its totals count the neighbours)
	// and with it lost what marks it a final look's rest, so a page one short in it was not read again; and as the host
	// answers the rest of a minute as the whole minute, the page after one that left a job out was taken for a page cap,
	// past which a read is not read again (a page one short, fewer than a cap gave before it, now keeps it from counting so).
	it.each([
		['a page of a final read Max Jobs per Poll cut short', {}, 2],
		["a cut final read's rest on a host that rounds the bounds", { roundBoundsMs: MINUTE }, 2],
		['a final read on a host that rounds the bounds', { roundBoundsMs: MINUTE }, 50],
	] as const)('sends a job a replica left out of %s, where a known job of that hour is removed later', async (_case, behaviour, maxJobsPerPoll) => {
		const { d, late } = finalReadBehindReplica(behaviour, maxJobsPerPoll);
		await d.poll();
		await d.pollUntil(T0 + 8 * HOUR);
		expect(d.sent).toContain(late.uid);
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	// Found by a review: the rest's first request failed (a 5xx, its retries too), and the rest lost what its read had left for it.
	it('sends a job a replica left out above the rest of a cut final read, where the first requests for that rest fail', async () => {
		const { d, late } = finalReadBehindReplica();
		const replica = d.index.fetchPage;
		let failures = 0;
		(d.index as { fetchPage: typeof replica }).fetchPage = async (request: PageRequest) => {
			const belowLate = request.toMs !== undefined && request.toMs < late.createdMs && request.toMs > late.createdMs - 30_000;
			if (belowLate && failures < 3) {
				failures++;
				throw new ModelFailure('500', { kind: 'passing' });
			}
			return await replica(request);
		};
		await d.poll();
		await d.pollUntil(T0 + 8 * HOUR);
		expect(failures).toBe(3);
		expect(d.sent).toContain(late.uid);
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	const ALL_SEEDS = [3, 5, 6, 8, 9, 10, 12, 14];
	// Found by a review's sweep: a burst larger than Max Jobs per Poll cuts final reads short, and behind a replica the rest
	// of a cut read came short of its own total (lost where a removal made the count match), or the pages above the cut did.
	it.each([
		['leaves a row out of one page in twenty', 'lowestCost', {}, ALL_SEEDS],
		['leaves a row out of one page in twenty', 'asSoonAsSeen', {}, ALL_SEEDS],
		// A review's: a rounding host's totals count rows outside the range, and its rests end mid-minute (read again, always short).
		// There a page one short of its total tells of a job left out above a cut (seed 14), and a page with nothing new one short
		// of its total is no page cap (seed 6 lost a job where it skipped the rest of a minute).
		['rounds the bounds and leaves a row out of one page in twenty', 'lowestCost', { roundBoundsMs: MINUTE }, ALL_SEEDS],
		['rounds the bounds and leaves a row out of one page in twenty', 'asSoonAsSeen', { roundBoundsMs: MINUTE }, ALL_SEEDS],
		// A host writing whole seconds is seen rounding too (rows before fromDate), and behind a page cap of 20 a page asked for 21
		// comes one short: a cut part read again an hour later and cut so again is no sign of a host whose total counts more
		// than it answers (seed 14 lost two jobs where it turned reading again off for a day; seeds 11 and 12 still lose one).
		['writes whole seconds, answers 20 rows a page and leaves a row out of one page in twenty (seed 14)', 'lowestCost', { writesCreatedAtToMs: 1000, pageCap: 20 }, [14]],
	] as const)('loses no job of a burst of 300 behind a host that %s, at Max Jobs per Poll 10 and a 30-minute Late Window, under %s', async (_host, delivery, host, seeds) => {
		for (const seed of seeds) {
			const from = T0 - 6 * HOUR;
			const shape = { ...HARSH, shape: 'out-of-order' as const, seed, fromMs: from, toMs: from + 14 * HOUR, perHour: 60, repostShare: 0.05 };
			const jobs = generateIndex({ ...shape, bursts: [{ atMs: from + 5 * HOUR, count: 300, spreadMs: 10 * MINUTE }] });
			const settings = defaultSettings({ lateWindowMs: 30 * MINUTE, maxJobsPerPoll: 10, delivery });
			const [f] = await simulate([{ jobs, behaviour: { ...host, leaveOutShare: 0.05, seed }, settings, everyMinutes: 1 }], from, from + 14 * HOUR);
			expect({ seed, lost: f.lost }).toEqual({ seed, lost: [] });
			expect(f.duplicates).toEqual([]);
		}
	});

	// Found by a sweep: a bulk import stood just under CHANCE_TIES_WHOLE (0.05 then) while its final looks asked open stretches and
	// crossed it a poll later; a job shown five minutes after another of its millisecond was in no stretch, and two removals in
	// that hour, never marked gone, kept the count from showing more than was known (lost).
	it('sends the late one of two jobs of a bulk import that share a millisecond, on an honest host that removes some jobs (seed 10)', async () => {
		const from = T0 - 6 * HOUR;
		const shape = { ...HARSH, shape: 'out-of-order' as const, seed: 10, fromMs: from, toMs: from + 14 * HOUR, perHour: 60, repostShare: 0.05 };
		const jobs = generateIndex({ ...shape, bursts: [{ atMs: from + 5 * HOUR, count: 300, spreadMs: 10 * MINUTE }] });
		// The case as the sweep drew it: the tie, the later one shown over five minutes after the other.
		const [first, late] = ['1000546', '1000545'].map((uid) => jobs.find((j) => j.uid === uid)!);
		expect(late.createdMs).toBe(first.createdMs);
		expect(late.visibleMs - first.visibleMs).toBeGreaterThan(5 * MINUTE);
		const settings = defaultSettings({ lateWindowMs: 30 * MINUTE, maxJobsPerPoll: 10 });
		const [f] = await simulate([{ jobs, behaviour: { seed: 10 }, settings, everyMinutes: 1 }], from, from + 14 * HOUR);
		expect(f.lost).toEqual([]);
		expect(f.duplicates).toEqual([]);
	});

	// A page one row short of its total is taken for a job left out only where the host rounds the bounds: behind a page cap of
	// n rows, every page asked for n + 1 comes one short, and each part read so would be read twice more (3.8 rows a job here).
	it('pays under two rows a job for a burst of 300 behind a host that answers at most 5 rows a page and leaves a row out of one page in twenty, under Lowest Cost', async () => {
		for (const seed of [3, 4, 5]) {
			const from = T0 - 6 * HOUR;
			const shape = { ...HARSH, shape: 'out-of-order' as const, seed, fromMs: from, toMs: from + 14 * HOUR, perHour: 60, repostShare: 0.05 };
			const jobs = generateIndex({ ...shape, bursts: [{ atMs: from + 5 * HOUR, count: 300, spreadMs: 10 * MINUTE }] });
			const settings = defaultSettings({ lateWindowMs: 30 * MINUTE, maxJobsPerPoll: 10, delivery: 'lowestCost' });
			const [f] = await simulate([{ jobs, behaviour: { pageCap: 5, leaveOutShare: 0.05, seed }, settings, everyMinutes: 1 }], from, from + 14 * HOUR);
			expect({ seed, rowsPerJob: f.rows / f.owed < 2 }).toEqual({ seed, rowsPerJob: true });
		}
	});

	// Found by a review: where every read comes short of its total, each final look was read again twice, and those
	// requests held the final look back (a day here: Lowest Cost 5,909 rows where an honest host costs 966, As Soon As
	// Seen 4,516 where it costs 1,029). Once a part read again an hour later is still short, the
	// host's total is taken to count more than it answers, and short looks are left to the count again for a day (2,813
	// and 1,531 rows). Outside assumption 3, a job a replica leaves out past its final look is found there only by a count
	// that comes after the replica catches up.
	it.each(['lowestCost', 'asSoonAsSeen'] as const)('sends what it sends on an honest host, for under three times its rows, where the host\'s total always counts one more than it answers, under %s', async (delivery) => {
		const jobs = generateIndex({ ...HARSH, shape: 'batch', seed: 7, fromMs: T0 - HOUR, toMs: T0 + 24 * HOUR, perHour: 40 });
		const runOn = async (overcount: number) => {
			const d = drive(jobs, { settings: { delivery } });
			countsMore(d, overcount);
			await d.poll();
			await d.pollUntil(T0 + 24 * HOUR);
			return d;
		};
		const [honest, overcounting] = [await runOn(0), await runOn(1)];
		const shownBefore = new Set(jobs.filter((j) => j.visibleMs < T0 + 22 * HOUR).map((j) => j.uid));
		expect(overcounting.sent.filter((uid) => shownBefore.has(uid)).sort()).toEqual(honest.sent.filter((uid) => shownBefore.has(uid)).sort());
		expect(overcounting.index.rows()).toBeLessThan(3 * honest.index.rows());
	});

	// Found by a review: where every young look reads short, each is read again an hour later, above the final look; the final
	// look that stopped below such a part waited for it, lagged, and read whole (1,585 rows where 1,503 now; honest: 1,029).
	it("does not hold its final looks back for young looks read again an hour later, where the host's total always counts one more than it answers", async () => {
		const jobs = generateIndex({ ...HARSH, shape: 'batch', seed: 7, fromMs: T0 - HOUR, toMs: T0 + 24 * HOUR, perHour: 40 });
		const runOn = async (overcount: number) => {
			const d = drive(jobs);
			countsMore(d, overcount);
			await d.poll();
			await d.pollUntil(T0 + 24 * HOUR);
			return d;
		};
		const [honest, overcounting] = [await runOn(0), await runOn(1)];
		expect(overcounting.index.rows()).toBeLessThan(1.5 * honest.index.rows());
	});

	// Found by a review: at one request a poll, a part whose first page brought only jobs it knew, short of a total that
	// counts one more, was asked again at every poll (the page that says there is no more never came): the final looks stood
	// still for good (Lowest Cost: 1,213 jobs unsent after a day and a half, the final look 37 hours behind).
	it.each(['lowestCost', 'asSoonAsSeen'] as const)("sends what it sends on an honest host at one request a minute, where the host's total always counts one more than it answers, under %s", async (delivery) => {
		const jobs = generateIndex({ ...HARSH, shape: 'batch', seed: 7, fromMs: T0 - HOUR, toMs: T0 + 24 * HOUR, perHour: 40 });
		const runOn = async (overcount: number) => {
			const d = drive(jobs, { settings: { delivery, requestsPerMinute: 1 } });
			countsMore(d, overcount);
			for (let t = T0; t <= T0 + 24 * HOUR; t += MINUTE) await d.poll(t);
			return d;
		};
		const [honest, overcounting] = [await runOn(0), await runOn(1)];
		// A job removed soon after it shows is sent by whichever poll happens to see it: only those that stay are owed.
		const shownBefore = new Set(jobs.filter((j) => j.visibleMs < T0 + 20 * HOUR && j.goneMs === undefined).map((j) => j.uid));
		expect(overcounting.sent.filter((uid) => shownBefore.has(uid)).sort()).toEqual(honest.sent.filter((uid) => shownBefore.has(uid)).sort());
		expect(new Set(overcounting.sent).size).toBe(overcounting.sent.length);
	});

	// Found by a review: the first page's known jobs were counted to the minute's end where the host was seen rounding (a
	// host writing whole seconds is, by its rows before fromDate), so a capped page of new jobs passed for known ones, and the
	// read ended: 167 jobs of the imports lost in a day here.
	it('loses no job of an import behind a host that writes whole seconds and answers 50 rows a page: known jobs above the range are not taken for new ones in it', async () => {
		const c = SHAPE_CASES.find((shape) => shape.name.startsWith('host writes whole seconds, 100 rows a page'))!;
		const { figures } = await runCase({ ...c, burst: 300, behaviour: { writesCreatedAtToMs: 1000, pageCap: 50 } }, 1, 1, 1, { maxJobsPerPoll: 50 });
		expect(figures.lost).toEqual([]);
		expect(figures.duplicates).toEqual([]);
	});

	// Found by a review: a count's part the poll could not read was also left to be read again an hour later where the host's
	// total is known to count more than it answers: there every count leaves one (14,470 rows a day here, where 11,844).
	it("keeps its saved state within a tenth of an honest host's, for under 4.5 times its rows, where the host's total always counts one more than it answers, on a job every 30 seconds", async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 24 * HOUR, 30_000);
		const runOn = async (overcount: number) => {
			const d = drive(jobs);
			countsMore(d, overcount);
			// On the minute, as n8n's ticks come (a poll's waits do not move the next one).
			for (let t = T0; t <= T0 + 24 * HOUR; t += MINUTE) await d.poll(t);
			const staticData: IDataObject = {};
			writeState(staticData, d.state as TriggerState);
			return { bytes: JSON.stringify(staticData).length, rows: d.index.rows() };
		};
		const [honest, overcounting] = [await runOn(0), await runOn(1)];
		expect(overcounting.bytes).toBeLessThan(1.1 * honest.bytes);
		expect(overcounting.rows).toBeLessThan(4.5 * honest.rows);
	});

	// The count stops below a part a poll left unread: counted before a poll reads it whole, a known job removed from it
	// (not yet found gone) cancels out a late job elsewhere in the count, and the floor passes the late job (lost).
	it('is found by the settling count where a known job is removed from the unread rest of a whole final read that Max Jobs per Poll cut short', async () => {
		// A job a minute at Max Jobs per Poll 1: the head read takes each poll's row, so the rest of a whole final read waits.
		const jobs = steady(T0 - 90 * MINUTE, T0 + 50 * MINUTE, MINUTE);
		const at = (ms: number) => jobs.find((j) => j.createdMs === ms + 417)!;
		// Shown 50 minutes late in a known job's millisecond, while final looks still ask open stretches.
		jobs.push(job(99_001, at(T0 - 45 * MINUTE).createdMs, T0 + 5 * MINUTE));
		// A tie at the head (the minute after holds no job, so a poll's row reads its other half): final looks read whole from then on.
		const tie = at(T0 + 24 * MINUTE);
		jobs.push(job(99_002, tie.createdMs, tie.visibleMs));
		jobs.splice(jobs.indexOf(at(T0 + 25 * MINUTE)), 1);
		// In the unread rest of the first whole final read; removed before the count.
		at(T0 - 36 * MINUTE).goneMs = T0 + 40 * MINUTE;
		const d = await run(jobs, 4, { maxJobsPerPoll: 1 });
		expect(d.sent).toContain('99001');
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	// A count pays a row: on a quiet search it waits for enough jobs, a day at most.
	it('is found on a quiet search where nothing newer comes, within a day', async () => {
		const jobs = [job(1, T0 + 30 * MINUTE + 5, T0 + 31 * MINUTE), job(2, T0 + 30 * MINUTE + 5, T0 + 50 * MINUTE)];
		const d = await run(jobs, 26, {}, {}, 5);
		expect(d.sent.sort()).toEqual(['1', '2']);
	});

	it('is found where the index has shown two jobs in one millisecond, even beside a removed job', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 3 * HOUR, 4 * MINUTE);
		const [a, b] = jobs.filter((j) => j.createdMs > T0 + HOUR);
		jobs.push(job(9002, a.createdMs, a.createdMs + MINUTE));
		jobs.push(job(9003, b.createdMs, b.createdMs + 25 * MINUTE));
		a.goneMs = a.createdMs + 40 * MINUTE;
		const d = await run(jobs, 6);
		expect(d.sent).toEqual(expect.arrayContaining(['9002', '9003']));
	});

	// A host that writes whole seconds shows a late job in a known job's second a thousand times as often, and a removal
	// in its hour hides it from the count: final looks read whole there.
	it('is found where every createdAt is a whole second and no tie was shown before, even beside a removed job', async () => {
		const jobs = steady(T0 - 30 * MINUTE + 13_000, T0 + 3 * HOUR, 4 * MINUTE, MINUTE, 0);
		const [a, b] = jobs.filter((j) => j.createdMs > T0 + HOUR);
		jobs.push(job(9004, b.createdMs, b.createdMs + 25 * MINUTE));
		a.goneMs = a.createdMs + 20 * MINUTE;
		const d = await run(jobs, 6);
		expect(d.sent).toContain('9004');
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	// Found by a review: final looks that turn whole (here a tie shown at the head) begin where the open stretches
	// ended, past the known milliseconds those passed over; a removal in the count's part then hid a late job there.
	it('is found where final looks turn whole after their open stretches passed over its millisecond, even beside a removed job', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 4 * HOUR, 2 * MINUTE);
		const at = (ms: number) => jobs.find((j) => j.createdMs >= ms)!;
		// Passed over by the final look's open stretches near T0 + 100 minutes, counted (from T0 + 10) near T0 + 130.
		const late = job(9005, at(T0 + 40 * MINUTE).createdMs, T0 + 70 * MINUTE);
		at(T0 + 30 * MINUTE).goneMs = T0 + 100 * MINUTE;
		const tie = at(T0 + 114 * MINUTE);
		jobs.push(late, job(9006, tie.createdMs, tie.visibleMs));
		const d = await run(jobs, 5);
		expect(d.sent).toEqual(expect.arrayContaining(['9005', '9006']));
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});
});

describe('where every createdAt is a whole minute', () => {
	// A job shown late in a known job's minute is in no open stretch, and a removal in its hour
	// hides it from the count: only a whole final read finds it (one simulated day of the bench's shape).
	it.each([1, 5])('finds every late job in a known minute (Every %i Minutes)', async (every) => {
		const { all } = await runCase(SHAPE_CASES.find((c) => c.name.startsWith('ties: createdAt in whole minutes'))!, every, 1, 7);
		for (const f of all) expectOnceWithinTheKey(f);
	});
});

describe('the uids it remembers', () => {
	it('sends nothing twice when the uid cap forgets jobs whose looks are unfinished', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 3 * HOUR, MINUTE, 20 * MINUTE);
		const d = await run(jobs, 6, { maxSeenUids: 20, requestsPerMinute: 1 });
		expect(d.sent.length).toBeGreaterThan(100);
		expect(new Set(d.sent).size).toBe(d.sent.length);
		expect(d.failed).toBe(0);
	});

	// Found by a coverage run: nothing noticed the uid cap leave a part below its floor to be read again.
	it('sends nothing twice where the uid cap lifts its floor over a part a poll could not finish', async () => {
		const burst = Array.from({ length: 200 }, (_, i) => job(7000 + i, T0 + 10 * MINUTE + i * 100, T0 + 11 * MINUTE));
		const d = await run([...steady(T0 - 30 * MINUTE, T0 + 3 * HOUR, 5 * MINUTE), ...burst], 4, { maxSeenUids: 20, maxJobsPerPoll: 5 });
		expect(d.sent.length).toBeGreaterThan(20);
		expect(new Set(d.sent).size).toBe(d.sent.length);
		expect(d.failed).toBe(0);
	});

	/** An import of `count` jobs two hours in, 100 ms apart (`perMs` to a millisecond), shown a minute later. */
	const bulk = (count: number, perMs = 1) => Array.from({ length: count }, (_, i) => job(7000 + i, T0 + 2 * HOUR + Math.floor(i / perMs) * 100, T0 + 2 * HOUR + MINUTE));
	/** A job a minute besides, for six hours: a cap of 300 uids then forgets jobs hours old every poll. */
	const besides = (jobs: IndexedJob[]) => [...steady(T0 - 30 * MINUTE, T0 + 6 * HOUR, MINUTE), ...jobs];
	const smallCap = { maxSeenUids: 300, maxJobsPerPoll: 50 };

	// Found by an audit: the cap dropped every part left below the floor, however old the uids it forgot.
	it('loses no job of a part left unread below the floor when the uid cap forgets far older ones', async () => {
		const burst = bulk(200);
		const d = await run(besides(burst), 8, { ...smallCap, delivery: 'lowestCost' });
		expect(burst.map((j) => j.uid).filter((uid) => !d.sent.includes(uid))).toEqual([]);
		expect(new Set(d.sent).size).toBe(d.sent.length);
		expect(d.failed).toBe(0);
	});

	// Found by a sweep at one or two requests a minute: the count came after the heads and the overdue final look, which
	// took every request, so nothing below the final look settled and the uid cap (10,000: 3.5 days of a job every 30 s) forgot
	// jobs the Late Window could still show, with a warning every poll from then on.
	it.each([1, 2])('forgets only settled jobs at Requests per Minute %s: an overdue count goes before the heads too', async (requestsPerMinute) => {
		const d = drive(steady(T0 - 30 * MINUTE, T0 + 8 * HOUR, 30_000), { settings: { requestsPerMinute, maxSeenUids: 600 } });
		let forgotten = 0;
		for (let at = T0; at <= T0 + 8 * HOUR; at += MINUTE) forgotten += (await d.poll(at)).capped;
		expect(forgotten).toBe(0);
		expect(new Set(d.sent).size).toBe(d.sent.length);
		expect(d.failed).toBe(0);
	});

	it('counts for its warning the uids it forgot above jobs it had not read, where the uid cap leaves no room, and sends none twice', async () => {
		const burst = bulk(400);
		const d = drive(besides(burst), { settings: { ...smallCap, delivery: 'lowestCost' } });
		let forgotten = 0;
		for (let at = T0; at <= T0 + 8 * HOUR; at += MINUTE) forgotten += (await d.poll(at)).capped;
		expect(burst.some((j) => !d.sent.includes(j.uid))).toBe(true);
		expect(forgotten).toBeGreaterThan(0);
		expect(new Set(d.sent).size).toBe(d.sent.length);
		expect(d.failed).toBe(0);
	});

	it('sends none twice where the uid cap forgets known jobs inside a part a final read left unfinished', async () => {
		// Jobs two to a millisecond: final looks read whole, and a read of the import stops after a poll's rows.
		const d = await run(besides(bulk(400, 2)), 8, smallCap);
		expect(d.sent.length).toBeGreaterThan(400);
		expect(new Set(d.sent).size).toBe(d.sent.length);
		expect(d.failed).toBe(0);
	});

	// A mutation sweep found the earlier version of this test no longer leaving a part below the floor.
	it('sends no job twice from a part left unread for over a day, whose jobs a day below the floor would forget', async () => {
		// Max Jobs per Poll 1 on a search that brings one job a minute: the head takes each poll's row. A late tie makes
		// the settling count read its hour whole, and the rest of that read waits, below the floor, for over a day.
		const jobs = steady(T0 - 30 * MINUTE, T0 + 28 * HOUR, MINUTE);
		const twin = jobs.find((j) => j.createdMs > T0 + HOUR)!;
		jobs.push(job(99_006, twin.createdMs, twin.createdMs + 30 * MINUTE));
		const d = await run(jobs, 30, { maxJobsPerPoll: 1 });
		expect(new Set(d.sent).size).toBe(d.sent.length);
		expect(d.sent).toContain('99006');
		expect(d.failed).toBe(0);
	});

	// Found by a review of a change that forgot uids below a horizon taken at the poll's start: an Emit on First Poll
	// activation read cut by Max Jobs per Poll reaches back further than that horizon, and its rest reads the oldest job again.
	it('sends no job twice where an Emit on First Poll activation read cut by Max Jobs per Poll reaches back over a day', async () => {
		const jobs = steady(T0 - 48 * HOUR, T0 + 3 * HOUR, 20 * MINUTE);
		const d = await run(jobs, 3, { firstPollLookbackMs: 48 * HOUR, maxJobsPerPoll: 100 });
		expect(d.sent.length).toBeGreaterThan(140);
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	it('does not send a known job again when it is posted again at another createdAt', async () => {
		const jobs = [job(1, T0 + 10 * MINUTE + 7, T0 + 11 * MINUTE, { repost: { createdMs: T0 + 40 * MINUTE + 7, atMs: T0 + 41 * MINUTE } })];
		const d = await run(jobs, 4);
		expect(d.sent).toEqual(['1']);
	});
});

describe('reading a part a poll could not finish', () => {
	// Found by the property on random postings (seed 20261127): the head read of two jobs in one
	// millisecond stopped after one (Max Jobs per Poll 1), and every later poll's first page
	// brought back only the job it knew at that millisecond: the other was never read.
	it('asks beyond the jobs it knows at the boundary, so two jobs in one millisecond come through at one row a poll', async () => {
		const jobs = [job(1000, T0 + 10 * MINUTE, T0 + 11 * MINUTE), job(1001, T0 + 10 * MINUTE, T0 + 11 * MINUTE)];
		const d = await run(jobs, 3, { maxJobsPerPoll: 1, requestsPerMinute: 1 }, {}, 5);
		expect(d.sent.sort()).toEqual(['1000', '1001']);
	});

	// Found by a mutation sweep: nothing noticed a read ended by a full page whose oldest job stands at the range's first millisecond.
	it('sends all 700 jobs of a bulk import posted in the millisecond after the newest known job on the poll that first sees them', async () => {
		const known = job(1, T0 + 10 * MINUTE + 7, T0 + 11 * MINUTE);
		const bulk = Array.from({ length: 700 }, (_, i) => job(2000 + i, known.createdMs + 1, T0 + 16 * MINUTE));
		const d = await run([known, ...bulk], 0.25);
		expect(d.sent).toEqual(['1']);
		const out = await d.poll(T0 + 16 * MINUTE);
		expect(out.emit).toHaveLength(700);
		await d.pollUntil(T0 + 3 * HOUR);
		expect(d.sent).toHaveLength(701);
	});

	it('sends every job of an hour that holds more than a poll may read under Lowest Cost: the rest of a cut-short final read waits as a part', async () => {
		const jobs = steady(T0 + 10 * MINUTE, T0 + 70 * MINUTE, 2 * MINUTE);
		const d = await run(jobs, 6, { delivery: 'lowestCost', maxJobsPerPoll: 5 }, {}, 60);
		expect(d.sent.sort()).toEqual(jobs.map((j) => j.uid).sort());
	});
});

describe('activation', () => {
	// The final look reads whole where createdAt are whole minutes: it waits for the activation's part, which alone knows
	// which of its jobs were there before the activation (found by a mutation sweep: nothing noticed the wait).
	it('sends no job posted before the activation where a 503 cut the activation read short, createdAt are whole minutes and Max Jobs per Poll is small', async () => {
		const before: IndexedJob[] = Array.from({ length: 1200 }, (_, i) => ({ uid: String(10_000 + i), createdMs: T0 - 75 * MINUTE + Math.floor(i / 16) * MINUTE, visibleMs: T0 - MINUTE }));
		const after: IndexedJob[] = Array.from({ length: 36 }, (_, i) => ({ uid: String(20_000 + i), createdMs: T0 + (10 + 5 * i) * MINUTE, visibleMs: T0 + (11 + 5 * i) * MINUTE }));
		const d = await run([...before, ...after], 4, { maxJobsPerPoll: 20 }, { outages: [{ fromMs: T0 + 1, toMs: T0 + 30_000 }] });
		expect(d.sent.sort()).toEqual(after.map((j) => j.uid).sort());
	});
	// Found by a coverage run: nothing read an activation whose pages the host answers with the same rows.
	it('fails no execution where the host answers every page of the activation read with the same rows, says so, and sends what comes after it', async () => {
		const jobs = steady(T0 - 90 * MINUTE, T0 + HOUR, 5 * MINUTE);
		const d = drive(jobs);
		const honest = d.index.fetchPage;
		// toDate ignored, ten rows a page: the Late Window's 15 jobs cannot all be read.
		(d.index as { fetchPage: typeof honest }).fetchPage = async (request: PageRequest) => await honest({ ...request, toMs: undefined, limit: Math.min(request.limit, 10) });
		const first = await d.poll();
		expect(first.reader.warnings).toEqual([expect.stringContaining('the host ignored the time bound of the search (toDate)')]);
		await d.pollUntil(T0 + 2 * HOUR);
		expect(d.failed).toBe(0);
		expect(d.sent).toEqual(expect.arrayContaining(jobs.filter((j) => j.createdMs > T0).map((j) => j.uid)));
	});
});

describe('a stored state it cannot read (an update of another state version, or a damaged one)', () => {
	/** Polls from T0 until a minute before two hours in, then finds its state unreadable. */
	const dropAtTwoHours = async (d: ReturnType<typeof drive>) => {
		await d.poll();
		await d.pollUntil(T0 + 2 * HOUR - MINUTE);
		d.dropState();
	};

	// Found by an audit: such a state started as an activation n8n 2.41 had not kept, and sent again the jobs of the last 20 minutes.
	it.each([
		['n8n 2.41 kept no activation poll', { unkeptActivationWithinMs: 6 * MINUTE }, {}],
		['a 503 answers the first poll after it', {}, { outages: [{ fromMs: T0 + 2 * HOUR, toMs: T0 + 2 * HOUR + 90_000 }] }],
		['Emit on First Poll is set', { firstPollLookbackMs: 3 * HOUR }, {}],
		["the index's clock runs 10 minutes ahead of n8n's and n8n 2.41 kept no activation poll", { unkeptActivationWithinMs: 6 * MINUTE }, { skewMs: -10 * MINUTE }],
	])('sends no job again where %s, and sends what shows later', async (_, settings, behaviour) => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 4 * HOUR, 2 * MINUTE);
		const d = drive(jobs, { settings, behaviour });
		await dropAtTwoHours(d);
		await d.pollUntil(T0 + 5 * HOUR);
		expect(new Set(d.sent).size).toBe(d.sent.length);
		expect(d.sent).toEqual(expect.arrayContaining(jobs.filter((j) => j.visibleMs > T0 + 2 * HOUR + 2 * MINUTE).map((j) => j.uid)));
		expect(d.failed).toBe(0);
	});

	it('sends no job again from the rest of a read a 503 cut short, where a thousand jobs came in its last ten minutes', async () => {
		const dense: IndexedJob[] = Array.from({ length: 1000 }, (_, i) => job(8000 + i, T0 + 2 * HOUR - 12 * MINUTE + i * 600, T0 + 2 * HOUR - 11 * MINUTE + i * 600));
		const d = drive([...steady(T0 - 30 * MINUTE, T0 + 4 * HOUR, 2 * MINUTE), ...dense], { behaviour: { outages: [{ fromMs: T0 + 2 * HOUR + 1, toMs: T0 + 2 * HOUR + 90_000 }] } });
		await dropAtTwoHours(d);
		await d.poll(T0 + 2 * HOUR);
		await d.pollUntil(T0 + 4 * HOUR);
		expect(new Set(d.sent).size).toBe(d.sent.length);
		expect(d.failed).toBe(0);
	});

	it('reads no further back than its Late Window where Emit on First Poll is set: that option is for the activation', async () => {
		const jobs = steady(T0 - 6 * HOUR, T0 + 4 * HOUR, 2 * MINUTE);
		const d = drive(jobs, { settings: { firstPollLookbackMs: 5 * HOUR } });
		await dropAtTwoHours(d);
		const rowsBefore = d.index.rows();
		await d.poll(T0 + 2 * HOUR);
		// The Late Window and the index's usual delay: about 45 jobs, not the 150 of five hours.
		expect(d.index.rows() - rowsBefore).toBeLessThan(60);
	});
});

describe('the index clock', () => {
	// Found by a mutation sweep: nothing noticed n8n's clock taken for the index's where no job was seen lately.
	it('Lowest Cost loses no job shown 55 minutes after its posting where n8n runs 10 minutes ahead of the index and nothing was seen before it', async () => {
		const d = await run([job(9008, T0 + 118 * MINUTE + 7, T0 + 173 * MINUTE)], 5, { delivery: 'lowestCost' }, { skewMs: 10 * MINUTE }, 5);
		expect(d.sent).toEqual(['9008']);
	});

	// Found by a coverage run: nothing noticed Lowest Cost's hourly look taken away.
	it('Lowest Cost learns the index clock from a look at the newest job: a job comes minutes past its Late Window, not the hour the activation saw', async () => {
		// At activation the newest job is 50 minutes old, so the clock looks 50 minutes behind; later jobs show a minute after posting.
		const jobs = [job(9009, T0 - 50 * MINUTE + 3, T0 - 49 * MINUTE), ...steady(T0 + 10 * MINUTE, T0 + 4 * HOUR, 5 * MINUTE)];
		expect((await lowestCostPastLateWindow(jobs, 5, T0 + 2 * HOUR, T0 + 3 * HOUR)).pastMs).toBeLessThanOrEqual(12 * MINUTE);
	});

	// Found in review: with the looks of the first hour and no hourly one after (64, 128, 256 minutes), no test noticed.
	it('Lowest Cost keeps looking at the index clock: a job comes minutes past its Late Window once a slow index turns fast', async () => {
		// Jobs show 30 minutes after posting for two hours and ten minutes, then a minute after.
		const slow = steady(T0 - 50 * MINUTE, T0 + 130 * MINUTE, 5 * MINUTE, 30 * MINUTE);
		const fast = steady(T0 + 130 * MINUTE, T0 + 5 * HOUR, 5 * MINUTE).map((j) => ({ ...j, uid: `f${j.uid}` }));
		const jobs = [...slow, ...fast];
		expect((await lowestCostPastLateWindow(jobs, 6, T0 + 3 * HOUR, T0 + 4 * HOUR)).pastMs).toBeLessThanOrEqual(8 * MINUTE);
	});

	// The look asked for the newest job after the final look, a row every hour: 1.85 rows a job here. It now asks only
	// for a job newer than the clock it believes, which a quiet search mostly has not, so it goes every five minutes for
	// free and catches the moments just after the index shows a job (looking so only hourly, a job came 29 minutes past
	// its Late Window).
	it('Lowest Cost keeps the index clock on a narrow search for under 1.4 rows a job, sending each job within 10 minutes past its Late Window', async () => {
		const jobs = generateIndex({ ...HARSH, shape: 'batch', seed: 7, fromMs: T0 - HOUR, toMs: T0 + 24 * HOUR, perHour: 2 });
		const { pastMs, rows, sent } = await lowestCostPastLateWindow(jobs, 24, T0 + HOUR, T0 + 22 * HOUR);
		expect(pastMs).toBeLessThanOrEqual(10 * MINUTE);
		expect(rows).toBeLessThan(1.4 * sent);
	});

	// Found in review: the look asks only for a job newer than the clock it believes, so it kept one sample, and when that
	// was a day old the clock fell back for an hour (a job 6.45 minutes past its Late Window). Samples that will be
	// forgotten within the hour no longer count there, so a successor is taken before.
	it('Lowest Cost keeps the index clock the day after its sample was taken: each job within 5 minutes past its Late Window', async () => {
		const jobs = generateIndex({ ...HARSH, shape: 'batch', seed: 7, fromMs: T0 - HOUR, toMs: T0 + 34 * HOUR, perHour: 40 });
		expect((await lowestCostPastLateWindow(jobs, 34, T0 + HOUR, T0 + 32 * HOUR)).pastMs).toBeLessThanOrEqual(5 * MINUTE);
	});

	// Found in review: a look every five minutes before the final looks took every request of five searches on one
	// request a minute, and nothing was sent. It goes after them, on the requests left.
	it('Lowest Cost sends the jobs of five searches that share one request a minute', async () => {
		const from = Date.UTC(2026, 10, 20);
		const searches = Array.from({ length: 5 }, (_, k) => ({
			key: `s${k}`,
			jobs: generateIndex({ ...HARSH, shape: 'batch', perHour: 10, seed: 7 + k, fromMs: from, toMs: from + 24 * HOUR }).map((j) => ({ ...j, uid: `${k}-${j.uid}` })),
		}));
		const settings = defaultSettings({ delivery: 'lowestCost', requestsPerMinute: 1 });
		const [f] = await simulate([{ jobs: searches.flatMap((s) => s.jobs), searches, settings, everyMinutes: 1 }], from, from + 24 * HOUR);
		expect(f.lost).toEqual([]);
	});

	// Found in review: a look at the clock that went before the final look (so that the final look ended on it) waited out
	// each 429 first, and the final look then met 429s until the poll's time ran out, four polls running (24 minutes past
	// the Late Window). It goes last.
	it('Lowest Cost sends each job within 15 minutes past its Late Window at Every 5 Minutes where 70% of requests meet a 429', async () => {
		const from = Date.UTC(2026, 10, 20);
		const jobs = generateIndex({ ...HARSH, shape: 'batch', perHour: 40, seed: 1, fromMs: from, toMs: from + 24 * HOUR });
		const settings = defaultSettings({ delivery: 'lowestCost', intervalMs: 5 * MINUTE, pollTimeMs: pollTimeFor(5) });
		const [f] = await simulate([{ jobs, settings, everyMinutes: 5, behaviour: { seed: 1, share429: 0.7, retryAfterMs: 20_000 } }], from, from + 24 * HOUR);
		expectOnceWithinTheKey(f);
		expect(f.worstPastLateWindowMinutes).toBeLessThanOrEqual(15);
	});

	// The hourly look alone fell every time just before a batch, so the clock stayed a batch behind (20 minutes late).
	it('Lowest Cost sends a job a few minutes past its Late Window where the index shows jobs in batches every quarter of an hour', async () => {
		const QUARTER = 15 * MINUTE;
		const jobs = steady(T0 - 30 * MINUTE, T0 + 4 * HOUR, 5 * MINUTE).map((j) => ({ ...j, visibleMs: Math.ceil(j.createdMs / QUARTER) * QUARTER + 30_000 }));
		expect((await lowestCostPastLateWindow(jobs, 5, T0, T0 + 3 * HOUR)).pastMs).toBeLessThanOrEqual(7 * MINUTE);
	});

	// Found in review: where a look that found no newer job kept the clock as it stood, one job dated ahead kept every
	// Late Window 15 minutes short for good, and this job was lost.
	it('Lowest Cost loses no job a day after it saw one job dated hours ahead of the index', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 32 * HOUR, 10 * MINUTE);
		jobs.push(job(9004, T0 + 4 * HOUR + 11, T0 - 10 * MINUTE));
		jobs.push(job(9200, T0 + 30 * HOUR + 7, T0 + 30 * HOUR + 53 * MINUTE));
		const d = await run(jobs, 32, { delivery: 'lowestCost' }, {}, 5);
		expect(d.sent).toContain('9200');
	});

	// Found in review: where it asked only after the clock it assumed (15 minutes behind n8n's), it never learned this one.
	it('Lowest Cost loses no job where the index runs 20 minutes behind n8n and activation saw no job', async () => {
		const jobs = steady(T0 + 2 * HOUR, T0 + 14 * HOUR, 30 * MINUTE);
		jobs.push(job(9200, T0 + 10 * HOUR + 7, T0 + 10 * HOUR + 58 * MINUTE));
		const d = await run(jobs, 14, { delivery: 'lowestCost' }, { skewMs: 20 * MINUTE });
		expect(d.sent).toContain('9200');
	});

	it('loses no job when one job is dated three hours ahead of the index', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 3 * HOUR, 6 * MINUTE);
		jobs.push(job(9004, T0 + 4 * HOUR + 11, T0 + 30 * MINUTE));
		const d = await run(jobs, 6);
		const owed = jobs.filter((j) => j.visibleMs > T0).map((j) => j.uid);
		expect(d.sent.sort()).toEqual(owed.sort());
	});
});

describe('hosts that deviate from the contract in ordinary ways', () => {
	// Found by a review: the final look stops below the part a cut-short head read left, inside a minute. Such a host
	// answers the rest of that minute first, which the unread batch fills: the read saw nothing new, was taken as done,
	// and the floor passed a late job below the head. Parts read whole or counted there end on whole minutes.
	it('sends a late job below a head whose minute holds a batch a cut-short head read left unread, where the host rounds the bounds', async () => {
		const h = T0 + 22 * MINUTE + 10_000;
		const jobs = [job(1, T0 - 30_000, T0 - 20_000), job(2, h, T0 + 23 * MINUTE), job(3, h - 2 * MINUTE, T0 + 80 * MINUTE)];
		for (let i = 0; i < 100; i++) jobs.push(job(100_000 + i, h + 400 + i * 400, T0 + 80 * MINUTE));
		const d = await run(jobs, 5, { maxJobsPerPoll: 10, intervalMs: 15 * MINUTE }, { roundBoundsMs: MINUTE }, 15);
		expect(d.sent).toContain('3');
		expect(new Set(d.sent).size).toBe(d.sent.length);
		expect(d.sent.filter((uid) => Number(uid) >= 100_000).length).toBe(100);
	});

	// Found in review: a version of the look at the index's clock that kept the clock as it stood, without parts of at most
	// 400 known jobs, paid 1.48 rows a job here (a count of over a thousand got a rounded total, and its part was read again).
	it('Lowest Cost pays about a row and a third a job on a busy search where the host rounds totals and leaves jobs out', async () => {
		const from = Date.UTC(2026, 10, 20);
		const jobs = generateIndex({ ...HARSH, shape: 'batch', perHour: 1500, seed: 7, fromMs: from, toMs: from + 8 * HOUR });
		const settings = defaultSettings({ intervalMs: MINUTE, delivery: 'lowestCost' });
		const [f] = await simulate([{ jobs, behaviour: { roundTotals: true, leaveOutShare: 0.05 }, settings, everyMinutes: 1 }], from, from + 8 * HOUR);
		expectOnceWithinTheKey(f);
		expect(f.rowsPerJob).toBeLessThanOrEqual(1.4);
	});

	// Found by an adversarial run: a whole read moved the floor with it, so no count checked its part again, and a job
	// a page once left out (a replica missing it for a moment) was lost under Lowest Cost (13 to 16 a day where 5% of pages did).
	it.each([
		['As Soon As Seen', {}],
		['Lowest Cost', { delivery: 'lowestCost' as const }],
		['Lowest Cost, where Max Jobs per Poll 1 cuts the read short', { delivery: 'lowestCost' as const, maxJobsPerPoll: 1 }],
	])('sends a job that one page left out while its total counted it, under %s', async (_, settings) => {
		const jobs = [1, 2, 3, 4, 5].map((n) => job(n, T0 + 5 * MINUTE + n * 10_000 + 417, T0 + 7 * MINUTE));
		const d = drive(jobs, { settings });
		const honest = d.index.fetchPage;
		let leftOut = false;
		// The one page that held job 4 with another job leaves it out and answers the next one in its place.
		(d.index as { fetchPage: typeof honest }).fetchPage = async (request: PageRequest) => {
			const page = await honest({ ...request, limit: request.limit + 1 });
			const leaves = !leftOut && page.jobs.slice(0, request.limit).some((j) => j.uid === '4') && request.limit >= 2;
			leftOut ||= leaves;
			return { ...page, jobs: page.jobs.filter((j) => !leaves || j.uid !== '4').slice(0, request.limit) };
		};
		await d.poll();
		await d.pollUntil(T0 + 26 * HOUR);
		expect(leftOut).toBe(true);
		expect(d.sent.sort()).toEqual(['1', '2', '3', '4', '5']);
		expect(d.failed).toBe(0);
	});

	// Found in review: after a page left a job out, the settling count of its hour found one more job than known, took the
	// only request a poll of Lowest Cost had left at one request a minute, and no read followed: asked again at every
	// poll, it kept the final look still for good (122 jobs lost). What a poll cannot read of such a part now waits as a part.
	it.each([0.5, 1])('keeps sending new jobs under Lowest Cost at Requests per Minute %p after a page left a job out, and sends that job too', async (requestsPerMinute) => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 8 * HOUR, 3 * MINUTE);
		const target = jobs.find((j) => j.createdMs > T0 + HOUR)!;
		const d = drive(jobs, { settings: { delivery: 'lowestCost', requestsPerMinute } });
		const honest = d.index.fetchPage;
		let leftOut = false;
		// The first page of two rows or more that holds the job leaves it out and answers the next one in its place.
		(d.index as { fetchPage: typeof honest }).fetchPage = async (request: PageRequest) => {
			const page = await honest({ ...request, limit: request.limit + 1 });
			const leaves = !leftOut && request.limit >= 2 && page.jobs.slice(0, request.limit).some((j) => j.uid === target.uid);
			leftOut ||= leaves;
			return { ...page, jobs: page.jobs.filter((j) => !leaves || j.uid !== target.uid).slice(0, request.limit) };
		};
		await d.poll();
		await d.pollUntil(T0 + 12 * HOUR);
		expect(leftOut).toBe(true);
		expect(d.sent.sort()).toEqual(jobs.filter((j) => j.visibleMs > T0).map((j) => j.uid).sort());
		expect(d.failed).toBe(0);
	});

	// Found while adding the bench's leave-out shape: a replica slow to take a job in leaves it out of every page for a while,
	// so the read's next page brought nothing new and the read ended as stuck (a host ignoring toDate): the floor passed the job.
	it.each([
		['As Soon As Seen', {}],
		['Lowest Cost', { delivery: 'lowestCost' as const }],
	])('sends a job shown late that every page leaves out for ten minutes after it shows, under %s', async (_, settings) => {
		const jobs = [1, 2, 3].map((n) => job(n, T0 + 5 * MINUTE + n * 10_000 + 417, T0 + 7 * MINUTE));
		jobs.push(job(4, T0 + 5 * MINUTE + 5_000, T0 + 63 * MINUTE));
		const d = drive(jobs, { settings });
		const honest = d.index.fetchPage;
		let leftOut = 0;
		(d.index as { fetchPage: typeof honest }).fetchPage = async (request: PageRequest) => {
			const page = await honest(request);
			const leaves = d.clock.ms < T0 + 73 * MINUTE && page.jobs.some((j) => j.uid === '4');
			if (leaves) leftOut++;
			return leaves ? { ...page, jobs: page.jobs.filter((j) => j.uid !== '4') } : page;
		};
		await d.poll();
		await d.pollUntil(T0 + 26 * HOUR);
		expect(leftOut).toBeGreaterThan(0);
		expect(d.sent.sort()).toEqual(['1', '2', '3', '4']);
		expect(d.failed).toBe(0);
	});

	// Found by trying the bench's leave-out host behind one that rounds the bounds (1 or 2 of about 3,300 jobs a day lost
	// on the out-of-order shape at 150 an hour), or writes createdAt in whole seconds: such a host answers rows outside
	// the range asked, and a whole read shorter than its total passed for complete there, so the floor passed the job
	// left out. Those rows now count against the total, and a read short of it waits for the count on any host.
	it.each([
		['As Soon As Seen', 'rounds the bounds to whole minutes', {}, { roundBoundsMs: MINUTE }],
		['Lowest Cost', 'rounds the bounds to whole minutes', { delivery: 'lowestCost' as const }, { roundBoundsMs: MINUTE }],
		['As Soon As Seen', 'writes createdAt in whole seconds', {}, { writesCreatedAtToMs: 1000 }],
		['Lowest Cost', 'writes createdAt in whole seconds', { delivery: 'lowestCost' as const }, { writesCreatedAtToMs: 1000 }],
	])('sends a job shown late that pages leave out for 50 minutes after it shows, under %s, where the host %s', async (_, __, settings, behaviour) => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 4 * HOUR, 20_000);
		const late = job(9, T0 + HOUR + 31_625, T0 + HOUR + 34 * MINUTE);
		const d = drive([...jobs, late], { settings, behaviour });
		const honest = d.index.fetchPage;
		let leftOut = 0;
		(d.index as { fetchPage: typeof honest }).fetchPage = async (request: PageRequest) => {
			const page = await honest(request);
			const leaves = d.clock.ms < late.visibleMs + 50 * MINUTE && page.jobs.some((j) => j.uid === late.uid);
			if (leaves) leftOut++;
			return leaves ? { ...page, jobs: page.jobs.filter((j) => j.uid !== late.uid) } : page;
		};
		await d.poll();
		await d.pollUntil(T0 + 5 * HOUR);
		expect(leftOut).toBeGreaterThan(0);
		expect(d.sent).toContain(late.uid);
		expect(new Set(d.sent).size).toBe(d.sent.length);
		expect(d.failed).toBe(0);
	});

	it('does not take a page a replica left a job out of for a host ignoring the time bound, where the host rounds the bounds', async () => {
		const jobs = [1, 2, 3].map((n) => job(n, T0 + 5 * MINUTE + n * 10_000 + 417, T0 + 7 * MINUTE));
		jobs.push(job(4, T0 + 5 * MINUTE + 5_000, T0 + 63 * MINUTE));
		const d = drive(jobs, { behaviour: { roundBoundsMs: MINUTE } });
		const honest = d.index.fetchPage;
		(d.index as { fetchPage: typeof honest }).fetchPage = async (request: PageRequest) => {
			const page = await honest(request);
			return d.clock.ms < T0 + 73 * MINUTE ? { ...page, jobs: page.jobs.filter((j) => j.uid !== '4') } : page;
		};
		const warnings: string[] = [];
		warnings.push(...(await d.poll()).reader.warnings);
		for (let t = T0 + MINUTE; t <= T0 + 3 * HOUR; t += MINUTE) warnings.push(...(await d.poll(t)).reader.warnings);
		expect(warnings.some((w) => w.includes('replica'))).toBe(true);
		expect(warnings.filter((w) => w.includes('time bound'))).toEqual([]);
	});

	// Found by trying hosts the bench did not model: a replica out of step drops a job out of its answers and totals for
	// minutes at a time. Within the Late Window that costs nothing (the final look reads after it); past it, a job out at
	// its final look and at its count is lost, which no reader that looks only now and then can avoid (assumption 1).
	it.each(['asSoonAsSeen', 'lowestCost'] as const)(
		'sends every job once under %s where the host drops jobs out of its answers and totals for minutes at a time until their Late Window ends',
		async (delivery) => {
			expectOnceWithinTheKey(await day({ shape: 'out-of-order' }, { dropsOut: { share: 0.2, withinMs: HOUR } }, 1, { delivery }));
			// The drop-outs reach the trigger: where they go on past the Late Window, jobs are lost.
			expect((await day({ shape: 'out-of-order' }, { dropsOut: { share: 0.2, withinMs: 2 * HOUR } }, 1, { delivery })).lost.length).toBeGreaterThan(0);
		},
	);

	it('takes rows a few seconds outside the asked range as no fault where the host rounds the bounds to whole minutes', async () => {
		expectOnceWithinTheKey(await day({}, { roundBoundsMs: MINUTE }, 1));
	});

	// Found by a mutation sweep: with Max Jobs per Poll 1 a pending part's page came back filled by the jobs of the
	// rounded minute above its end (6 of 8 never sent). A page makes room for them where the host has rounded lately.
	it('reads every job of a minute one row a poll where the host rounds the bounds to whole minutes', async () => {
		const jobs = Array.from({ length: 8 }, (_, i) => job(7000 + i, T0 + 10 * MINUTE + 1_000 + i * 7_000, T0 + 12 * MINUTE));
		const d = await run(jobs, 4, { maxJobsPerPoll: 1 }, { roundBoundsMs: MINUTE });
		expect(d.sent.sort()).toEqual(jobs.map((j) => j.uid).sort());
	});

	// Found by a review: a host that rounds the bounds to whole minutes answers a part ending inside a minute with the
	// rest of that minute first, jobs no read had taken in among them, and the part was skipped: 2,313 of 3,000 were
	// sent. Parts read whole or counted now end on whole minutes there, and a page makes room for the jobs this read has
	// up to its minute's end. Left open: each head read still buys the head's whole minute again (about 90,000 rows
	// here, 4,500 where the host does not round).
	it('sends every job of a bulk import of 3,000 in two minutes, shown in two halves, where the host rounds the bounds to whole minutes', async () => {
		const jobs = Array.from({ length: 3000 }, (_, i) => job(100_000 + i, T0 + 10 * MINUTE + Math.floor(i / 25) * 1_000 + 3, T0 + (i % 2 === 0 ? 13 : 20) * MINUTE));
		const d = await run(jobs, 3, {}, { roundBoundsMs: MINUTE });
		expect(new Set(d.sent).size).toBe(3000);
	});

	// The bench's shape (seed 7, one day): a whole read cut short by the requests left bought the
	// same 300 rows every poll and never finished (28 jobs lost at Every Minute), and a late job in
	// the millisecond of one of the import's was found by no look (1 lost at Every 5 Minutes).
	it.each([1, 5])('reads bulk imports of 600 to their end where the host answers at most 100 rows a page (Every %i Minutes)', async (every) => {
		const { all } = await runCase(SHAPE_CASES.find((c) => c.name.startsWith('host answers at most 100'))!, every, 1, 7);
		for (const f of all) expectOnceWithinTheKey(f);
	});

	// Found by trying hosts that cap their pages: a minute (of a host that rounds the bounds) or a second (of one that
	// writes createdAt in whole seconds) holding more jobs than a page answers every toDate inside it with the same rows,
	// and the read ended there, so every job below it was lost too (on a rounding host with imports of 600, 979 a day
	// where 810 cannot be read). The rest of it is skipped, logged; what lies below is read.
	const fullHosts: [string, string, IndexBehaviour, number, (i: number) => number, number][] = [
		['rounds the bounds to whole minutes', 'minute', { roundBoundsMs: MINUTE, pageCap: 100 }, T0 + 58 * MINUTE + 1_239, (i) => T0 + 61 * MINUTE + 1_000 + i * 300, HOUR],
		['writes createdAt in whole seconds', 'second', { writesCreatedAtToMs: 1000, pageCap: 50 }, T0 + HOUR + 1_239, (i) => T0 + HOUR + 5_000 + i * 11, MINUTE],
	];
	it.each(fullHosts.flatMap(([host, ...rest]) => [['As Soon As Seen', host, {}, ...rest] as const, ['Lowest Cost', host, { delivery: 'lowestCost' as const }, ...rest] as const]))(
		'reads past a stretch holding more jobs than a page, and says so, under %s, where the host %s and caps its pages',
		async (_, _host, settings, unit, behaviour, belowMs, fullMs, everyMs) => {
			const jobs = steady(T0 - 30 * MINUTE, T0 + 4 * HOUR, 2 * MINUTE);
			const below = job(1, belowMs, T0 + 69 * MINUTE);
			const full = Array.from({ length: 150 }, (_, i) => job(100 + i, fullMs(i), T0 + 65 * MINUTE));
			const d = drive([...jobs, below, ...full], { settings, behaviour });
			const warnings: string[] = [];
			warnings.push(...(await d.poll()).reader.warnings);
			for (let t = T0 + everyMs; t <= T0 + 5 * HOUR; t += everyMs) warnings.push(...(await d.poll(t)).reader.warnings);
			expect(d.sent).toContain(below.uid);
			expect(new Set(d.sent).size).toBe(d.sent.length);
			expect(warnings.some((w) => w.includes(`the rest of that ${unit} was skipped`))).toBe(true);
			expect(d.failed).toBe(0);
		},
	);

	it('takes a uid repeated within an answer as one job, also where the repeats fill a page', async () => {
		const from = Date.UTC(2026, 10, 20);
		expectOnceWithinTheKey(await day({ shape: 'out-of-order', bursts: [{ atMs: from + 6 * HOUR, count: 450, spreadMs: MINUTE }] }, { repeatEvery: 3 }, 5));
	});

	it('sends no forgotten job again where the host rounds the bounds down to rows below the floor', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 5 * HOUR, 20_000);
		const d = await run(jobs, 6, { maxSeenUids: 30 }, { roundBoundsMs: 10 * MINUTE });
		expect(d.sent.length).toBeGreaterThan(500);
		expect(new Set(d.sent).size).toBe(d.sent.length);
	});

	// Found by trying a host the tests had not modelled: one whose bounds compare the index's milliseconds but which writes
	// createdAt in whole seconds. A read that starts inside a job's second gets the job as a row before its range; every
	// read that asks for the rest of a minute starts there, so a job in the first second of a minute shown late was lost
	// (up to 48 of 3,391 a day on the bench). A uid never seen is taken in wherever a row brings it.
	it('sends a job shown late where the host writes createdAt in whole seconds and reads start inside its second', async () => {
		const minuteMs = T0 + 10 * MINUTE;
		const jobs = [job(1, minuteMs + 100, T0 + 11 * MINUTE), job(2, minuteMs + 700, T0 + 40 * MINUTE)];
		const d = await run(jobs, 3, {}, { writesCreatedAtToMs: 1000 });
		expect(d.sent.sort()).toEqual(['1', '2']);
	});

	// Found by trying that host behind one that caps its pages (34 of 4,377 jobs lost a day with imports of 600): a page
	// ending inside a second gave the next page that whole second as its toDate, which the host compares to the
	// milliseconds, so the rest of the second was never read. A page ending on a whole second asks on to that second's end.
	it.each([
		['As Soon As Seen', {}],
		['Lowest Cost', { delivery: 'lowestCost' as const }],
	])('sends every job of an import where the host writes createdAt in whole seconds and caps its pages, under %s', async (_, settings) => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 4 * HOUR, 2 * MINUTE);
		const imported = Array.from({ length: 300 }, (_, i) => job(100 + i, T0 + HOUR + 13 + i * 143, T0 + HOUR + 3 * MINUTE));
		const d = await run([...jobs, ...imported], 4, { ...settings, intervalMs: HOUR }, { writesCreatedAtToMs: 1000, pageCap: 50 }, 60);
		expect(imported.filter((j) => !d.sent.includes(j.uid))).toEqual([]);
		expect(new Set(d.sent).size).toBe(d.sent.length);
		expect(d.failed).toBe(0);
	});

	// Found by a review: asking on to a second's end where the host writes milliseconds buys the jobs of that second again.
	it('asks no second again where a page ends on a whole second of a host that writes milliseconds and caps its pages', async () => {
		const second = T0 + 10 * MINUTE;
		const jobs = [0, 100, 200, 300, 400].map((ms, i) => job(10 + i, second + ms, T0 + 11 * MINUTE));
		jobs.push(...[1, 2, 3, 4, 5].map((n) => job(n, second - n * 7_003, T0 + 11 * MINUTE)));
		const d = drive(jobs, { behaviour: { pageCap: 5 } });
		await d.poll();
		const rowsBefore = d.index.rows();
		await d.poll(T0 + 11 * MINUTE);
		expect(d.sent.sort()).toEqual(jobs.map((j) => j.uid).sort());
		expect(d.index.rows() - rowsBefore).toBeLessThanOrEqual(12);
	});

	// Found by a review: a page one short of what it asked is taken for a replica leaving a job out, not a page cap, unless a
	// page of the same read gave no more: asked for one row more than the cap (one job left), the read ended there, short,
	// and every read again did the same, so the job below the full second or minute was never read.
	it.each([
		['writes whole seconds', { writesCreatedAtToMs: 1000, pageCap: 5 }, 0],
		['rounds the bounds', { roundBoundsMs: MINUTE, pageCap: 5 }, MINUTE],
	] as const)('reads the job below a stretch holding as many jobs as a page, where the host %s and answers 5 rows a page', async (_host, behaviour, roundedToMs) => {
		const fullMs = T0 + 10 * MINUTE + (roundedToMs > 0 ? MINUTE : 0);
		const jobs = [100, 200, 300, 400, 500].map((ms, i) => job(10 + i, fullMs + ms, T0));
		jobs.push(job(1, T0 + 10 * MINUTE - 2_750, T0));
		const clock = { ms: T0 + HOUR };
		const index = arrayIndex(jobs, clock, behaviour);
		const reader = new Reader(index.fetchPage, { rowsPerRequest: 100, maxRows: 1000, deadlineMs: Infinity, now: () => clock.ms, wholeSeconds: true });
		const read = await reader.readRange({ fromMs: T0, toMs: T0 + 20 * MINUTE }, () => 0, roundedToMs);
		expect([...read.shown].sort()).toEqual(jobs.map((j) => j.uid).sort());
	});

	// Found by a review: asking on to a second's end where the host rounds the bounds up buys the minute above again
	// (1,200 rows here where 905 are paid, 825 before any page asked on to a second's end).
	it('asks no page on past a whole minute once a row came past a toDate, where the host rounds the bounds up, writes whole minutes and caps its pages', async () => {
		const jobs = Array.from({ length: 90 }, (_, i) => job(100 + i, T0 + 10 * MINUTE + Math.floor(i / 3) * MINUTE, T0 + 41 * MINUTE));
		const d = drive(jobs, { behaviour: { roundBoundsMs: MINUTE, pageCap: 5 } });
		await d.poll();
		const rowsBefore = d.index.rows();
		await d.pollUntil(T0 + 3 * HOUR);
		expect(d.sent.sort()).toEqual(jobs.map((j) => j.uid).sort());
		expect(d.index.rows() - rowsBefore).toBeLessThanOrEqual(950);
	});

	it('rides out a 20-minute spell of 503s: no failed execution, nothing lost, within the key', async () => {
		const from = Date.UTC(2026, 10, 20);
		expectOnceWithinTheKey(await day({}, { outages: [{ fromMs: from + 5 * HOUR, toMs: from + 5 * HOUR + 20 * MINUTE }] }, 1));
	});

	// Found in review: a part read again an hour after a short look, which the host first answered with a row past its
	// toDate (skipped), counted as a host whose total counts more than it answers, and for a day no short look was read
	// again: a job a replica left out waited for the hourly count.
	it('reads a short final look again the day a re-read was skipped on the first row the host answered past its toDate', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 5 * HOUR, 2 * MINUTE);
		const x = jobs.find((j) => j.createdMs > T0 + 30 * MINUTE)!;
		const y = jobs.find((j) => j.createdMs > T0 + 150 * MINUTE)!;
		const d = drive(jobs, { settings: { delivery: 'lowestCost', intervalMs: 5 * MINUTE } });
		const honest = d.index.fetchPage;
		let xLeftOut: PageRequest & { atMs: number } | undefined;
		let yLeftOutAtMs: number | undefined;
		const leaveOut = (answer: Awaited<ReturnType<typeof honest>>, uid: string) => ({ ...answer, jobs: answer.jobs.filter((j) => j.uid !== uid) });
		(d.index as { fetchPage: typeof honest }).fetchPage = async (request) => {
			const answer = await honest(request);
			// A final look's request (a count asks one row).
			const holds = (ms: number) => request.limit > 1 && request.toMs !== undefined && request.fromMs <= ms && ms <= request.toMs;
			// A replica leaves the job out of every page of the poll that first asks for it (its total counts it).
			if (holds(x.createdMs) && (!xLeftOut || d.clock.ms < xLeftOut.atMs + MINUTE)) {
				xLeftOut ??= { ...request, atMs: d.clock.ms };
				return leaveOut(answer, x.uid);
			}
			if (xLeftOut && d.clock.ms >= xLeftOut.atMs + HOUR && request.fromMs === xLeftOut.fromMs && request.toMs === xLeftOut.toMs) {
				// The re-read an hour later: a known job past its toDate and one of its own: nothing new, fewer than its total.
				const past = jobs.find((j) => j.createdMs > request.toMs!)!;
				return { ...answer, jobs: [{ uid: past.uid, createdAt: new Date(past.createdMs).toISOString() }, ...answer.jobs.slice(0, 1)] };
			}
			if (d.clock.ms > T0 + 3 * HOUR && holds(y.createdMs) && (yLeftOutAtMs === undefined || d.clock.ms < yLeftOutAtMs + MINUTE)) {
				yLeftOutAtMs ??= d.clock.ms;
				return leaveOut(answer, y.uid);
			}
			return answer;
		};
		await d.poll();
		const sentAtMs = new Map<string, number>();
		for (let t = T0 + 5 * MINUTE; t <= T0 + 5 * HOUR; t += 5 * MINUTE) for (const uid of uidsOf((await d.poll(t)).emit)) sentAtMs.set(uid, t);
		expect(yLeftOutAtMs).toBeDefined();
		expect(sentAtMs.get(y.uid)! - yLeftOutAtMs!).toBeLessThanOrEqual(10 * MINUTE);
	});

	// A part the host answers with the same rows is not asked again every poll: in three hours As Soon As Seen pays 407 rows
	// (4,591 where it was), Lowest Cost 1,788.
	it.each([
		['As Soon As Seen', {}, 1_000],
		['Lowest Cost', { delivery: 'lowestCost' as const }, 2_500],
	])('still sends new jobs every poll where the host answers every older part with the same rows, and says so, under %s', async (_, settings, rows) => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 3 * HOUR, 5 * MINUTE);
		const d = drive(jobs, { settings });
		const honest = d.index.fetchPage;
		const warnings: string[] = [];
		// toDate ignored, ten rows a page: every page is the ten newest jobs.
		const ignoring = async (request: PageRequest) => await honest({ ...request, toMs: undefined, limit: Math.min(request.limit, 10) });
		(d.index as { fetchPage: typeof honest }).fetchPage = ignoring;
		const first = await d.poll();
		warnings.push(...first.reader.warnings);
		for (let t = T0 + MINUTE; t <= T0 + 3 * HOUR; t += MINUTE) {
			const out = await d.poll(t);
			warnings.push(...out.reader.warnings);
			expect(d.failed).toBe(0);
		}
		const owed = jobs.filter((j) => j.visibleMs > T0 && j.createdMs > T0).map((j) => j.uid);
		expect(d.sent).toEqual(expect.arrayContaining(owed));
		expect(warnings.some((w) => w.includes('time bound'))).toBe(true);
		expect(d.index.rows()).toBeLessThan(rows);
	});
});

describe('Delivery', () => {
	it('Lowest Cost sends each job once, a Late Window after its posting, for about a row a job', async () => {
		const f = await day({ shape: 'out-of-order' }, {}, 5, { delivery: 'lowestCost' });
		expectOnceWithinTheKey(f);
		expect(f.rowsPerJob).toBeLessThanOrEqual(1.15);
	});

	// A whole read that ends inside a minute buys that minute again with the next one where the host rounds the bounds:
	// its final looks end on whole minutes there (1.32 rows a job where they did not).
	it('Lowest Cost reads about a row a job where the host rounds the bounds to whole minutes', async () => {
		const f = await day({}, { roundBoundsMs: MINUTE }, 1, { delivery: 'lowestCost' });
		expectOnceWithinTheKey(f);
		expect(f.rowsPerJob).toBeLessThanOrEqual(1.15);
	});

	// Such a host answers each read with the jobs of the minute it starts in, which the read before ended on: where every
	// posting time is a whole minute, a read a poll at Every Minute buys each job twice (2.15 rows a job), one per look step 1.33.
	it('Lowest Cost reads a job shown in a whole minute no more than about once and a third where the host rounds the bounds', async () => {
		const f = await day({ roundToMs: MINUTE }, { roundBoundsMs: MINUTE }, 1, { delivery: 'lowestCost' });
		expectOnceWithinTheKey(f);
		expect(f.rowsPerJob).toBeLessThanOrEqual(1.4);
	});

	// Lowest Cost reads no head: where its newest job read were left at activation, the first As Soon As Seen poll would
	// buy every job since then again (102 rows here).
	it('buys no job again that Lowest Cost read where the user switches Delivery to As Soon As Seen', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 9 * HOUR, 5 * MINUTE);
		const d = await run(jobs, 8, { delivery: 'lowestCost' });
		d.settings.delivery = 'asSoonAsSeen';
		const rowsBefore = d.index.rows();
		await d.pollUntil(T0 + 8 * HOUR + 30 * MINUTE);
		expect(d.index.rows() - rowsBefore).toBeLessThanOrEqual(30);
		expect(new Set(d.sent).size).toBe(d.sent.length);
		expect(d.sent).toEqual(expect.arrayContaining(jobs.filter((j) => j.createdMs > T0 && j.createdMs < T0 + 8 * HOUR).map((j) => j.uid)));
	});

	// A count pays a row: an hourly one cost 1.5 rows a job on a search of two jobs an hour.
	it('As Soon As Seen pays about a row a job on a quiet search of two jobs an hour: its count waits for twenty jobs', async () => {
		const f = await day({ perHour: 2 }, {}, 1);
		expectOnceWithinTheKey(f);
		expect(f.rowsPerJob).toBeLessThanOrEqual(1.2);
	});

	it('As Soon As Seen sends a job the index shows 30 minutes after its posting within about a quarter of an hour of showing', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 3 * HOUR, 5 * MINUTE);
		jobs.push(job(9005, T0 + HOUR + 7, T0 + HOUR + 30 * MINUTE));
		const d = drive(jobs);
		await d.poll();
		let sentAtMs = 0;
		for (let t = T0 + MINUTE; t <= T0 + 4 * HOUR && !sentAtMs; t += MINUTE) if ((await d.poll(t)).emit.some((j) => j.uid === '9005')) sentAtMs = t;
		expect(sentAtMs - (T0 + HOUR + 30 * MINUTE)).toBeLessThanOrEqual(16 * MINUTE);
	});

	// Found with the bench's narrow search: each young look waited for five minutes below the head, which a quiet search's
	// newest job holds still for hours, so a job shown behind it waited for its final look (48 minutes).
	it('As Soon As Seen sends a job shown behind a newer one within about a quarter of an hour on a quiet search', async () => {
		const jobs = [job(1, T0 - 40 * MINUTE + 7, T0 - 38 * MINUTE), job(2, T0 + 7 * MINUTE + 7, T0 + 9 * MINUTE), job(3, T0 + 4 * MINUTE + 7, T0 + 22 * MINUTE)];
		const d = drive(jobs);
		await d.poll();
		let sentAtMs = 0;
		for (let t = T0 + MINUTE; t <= T0 + 3 * HOUR && !sentAtMs; t += MINUTE) if ((await d.poll(t)).emit.some((j) => j.uid === '3')) sentAtMs = t;
		expect(sentAtMs - (T0 + 22 * MINUTE)).toBeLessThanOrEqual(16 * MINUTE);
	});

	// Found in review: a look waited for five whole minutes of the window, so where a poll started a few ms earlier in its
	// tick than the last, the young looks and Lowest Cost's look at the clock went every ten minutes at Every 5 Minutes.
	it('As Soon As Seen sends each job within 12 minutes of showing at Every 5 Minutes where every other poll starts 30 ms late', async () => {
		const from = Date.UTC(2026, 10, 20);
		const jobs = generateIndex({ ...HARSH, shape: 'batch', perHour: 40, seed: 7, fromMs: from, toMs: from + 24 * HOUR });
		const [f] = await simulate([{ jobs, settings: defaultSettings({ intervalMs: 5 * MINUTE, pollTimeMs: pollTimeFor(5) }), everyMinutes: 5, lateStartMs: 30 }], from, from + 24 * HOUR);
		expectOnceWithinTheKey(f);
		expect(f.worstDelayMinutes).toBeLessThanOrEqual(12);
	});

	it('asks a quiet search about two requests a minute at Every Minute, not five: each look waits for five minutes of the window', async () => {
		const d = await run(steady(T0 - 30 * MINUTE, T0 + 4 * HOUR, 20 * MINUTE), 4);
		const after = d.index.requests.filter((r) => r.atMs > T0 + 2 * HOUR);
		expect(after.length / 120).toBeLessThanOrEqual(2.5);
		expect(busiestMinute(after.map((r) => r.atMs))).toBeLessThanOrEqual(10);
	});

	/** Polls a job every `gapMs` for six hours: the most minutes a job shown in hours 1 to 5 waited past its showing, and whether one came twice. */
	async function worstWaitOfNewJobs(gapMs: number, settings: Partial<CycleSettings>) {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 6 * HOUR, gapMs);
		const d = drive(jobs, { settings });
		await d.poll();
		const sentAtMs = new Map<string, number>();
		for (let t = T0 + MINUTE; t <= T0 + 6 * HOUR; t += MINUTE) for (const j of (await d.poll(t)).emit) sentAtMs.set(String(j.uid), t);
		const shown = jobs.filter((j) => j.visibleMs > T0 + HOUR && j.visibleMs < T0 + 5 * HOUR);
		expect(new Set(d.sent).size).toBe(d.sent.length);
		return Math.max(...shown.map((j) => ((sentAtMs.get(j.uid) ?? Infinity) - j.visibleMs) / MINUTE));
	}

	// Found by a review: the overdue look read to 20 minutes short of what is due, so it was overdue again at the next poll
	// and took the one request of every poll: no head read again, each job about 80 minutes after it showed.
	// A poll whose one request goes to an overdue count sends its jobs at the next.
	it('keeps sending each new job at the next poll or the one after at Requests per Minute 1 where the final looks cannot ask every stretch', async () => {
		expect(await worstWaitOfNewJobs(30_000, { requestsPerMinute: 1 })).toBeLessThanOrEqual(3);
	});

	// Found by a sweep: at one request a poll the head's went first at every poll, so the rest a cut-short head read left was never read.
	it.each([
		['21 jobs, Max Jobs per Poll 20', 21, { maxJobsPerPoll: 20 }],
		['501 jobs, the default Max Jobs per Poll', 501, {}],
	])('sends every job shown at once at one request a poll (%s): the head and the rest it left take turns', async (_name, count, settings) => {
		const jobs = Array.from({ length: count }, (_, i) => job(7000 + i, T0 + HOUR - 10 * MINUTE + i * 100 + 17, T0 + HOUR));
		const d = await run(jobs, 3, { requestsPerMinute: 1, ...settings });
		expect([...d.sent].sort()).toEqual(jobs.map((j) => j.uid).sort());
	});

	// Found by a review: the overdue looks of several searches left the heads too few requests but took one each poll.
	it('keeps sending each new job within two minutes of showing where three searches share three requests a minute', async () => {
		const all = steady(T0 - 30 * MINUTE, T0 + 6 * HOUR, 10_000);
		const searches = [0, 1, 2].map((k) => ({ key: `s${k}`, jobs: all.filter((_, i) => i % 3 === k) }));
		const [f] = await simulate([{ jobs: all, searches, settings: defaultSettings({ requestsPerMinute: 3 }), everyMinutes: 1 }], T0, T0 + 6 * HOUR);
		expect(f.lost).toEqual([]);
		expect(f.duplicates).toEqual([]);
		expect(f.worstDelayMinutes).toBeLessThanOrEqual(2);
	});

	// A review's case: counting the polls, not each search's own turns at going first, a search first on even polls would never read its parts first.
	it('sends every job shown at once to each of two searches at one request a minute, where each batch is larger than Max Jobs per Poll', async () => {
		const [a, b] = [1, 2].map((k) => Array.from({ length: 21 }, (_, i) => job(10_000 * k + i, T0 + HOUR - 10 * MINUTE + i * 100 + 17 + k, T0 + HOUR)));
		const settings = defaultSettings({ requestsPerMinute: 1, maxJobsPerPoll: 20 });
		const [f] = await simulate([{ jobs: [...a, ...b], searches: [{ key: 'a', jobs: a }, { key: 'b', jobs: b }], settings, everyMinutes: 1 }], T0, T0 + 3 * HOUR, 0);
		expect(f.lost).toEqual([]);
		expect(f.delivered).toBe(42);
	});

	// Found by a review: a search's head read was cut by the rows another search's overdue final look read before it.
	it("sends every job of two searches where requests are scarce and Max Jobs per Poll small: one search's final look takes none of the other's rows for new jobs", async () => {
		const [a, b]: IndexedJob[][] = [[], []];
		for (const [i, j] of steady(T0 - 30 * MINUTE, T0 + 6 * HOUR, 10_000).entries()) (i % 2 ? a : b).push(j);
		const settings = defaultSettings({ requestsPerMinute: 2, maxJobsPerPoll: 10 });
		const [f] = await simulate([{ jobs: [...a, ...b], searches: [{ key: 'a', jobs: a }, { key: 'b', jobs: b }], settings, everyMinutes: 1 }], T0, T0 + 6 * HOUR);
		expect(f.lost).toEqual([]);
		expect(f.duplicates).toEqual([]);
	});

	it('keeps the final looks within about twenty minutes of the Late Window where requests cannot ask every stretch, reading the lagging part whole', async () => {
		const jobs = steady(T0 - 30 * MINUTE, T0 + 5 * HOUR, 20_000);
		jobs.push(job(9006, T0 + HOUR + 7, T0 + HOUR + 55 * MINUTE));
		const d = drive(jobs, { settings: { requestsPerMinute: 1 } });
		await d.poll();
		let sentAtMs = 0;
		for (let t = T0 + MINUTE; t <= T0 + 5 * HOUR && !sentAtMs; t += MINUTE) if ((await d.poll(t)).emit.some((j) => j.uid === '9006')) sentAtMs = t;
		expect(sentAtMs).toBeGreaterThan(0);
		expect(sentAtMs - (T0 + HOUR)).toBeLessThanOrEqual(60 * MINUTE + 40 * MINUTE);
	});
});
