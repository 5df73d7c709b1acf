import type { FetchPage, Page, PageRequest } from '../../nodes/JobSearch/paging/reader';
import type { FailureKind } from '../../nodes/JobSearch/trigger/cycle';
import { seedFromText, seededRandom } from '../../server/random';

/**
 * Index shapes the trigger must hold on, kept in arrays: the service's search semantics (inclusive
 * window, newest first, ties by uid descending, `total` before `limit`, billed per row) over jobs
 * that each have their own moment of showing up and, for some, of going away again or of being
 * posted again. Fast enough for days of polls in a property test; the reference server's live
 * mode offers the same shapes over HTTP.
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const ROW_PRICE = 579_000;
/** A host that leaves rows out (IndexBehaviour.leaveOutShare) leaves out only jobs shown this recently (DESIGN.md allows up to an hour: assumption 3). */
export const LEFT_OUT_WITHIN_MS = 30 * MINUTE;

export interface IndexedJob {
	uid: string;
	/** In the index's clock, as every time of a job here. */
	createdMs: number;
	visibleMs: number;
	/** When the index stops showing it (closed or made private). */
	goneMs?: number;
	/** Posted again under the same uid: from `atMs` on the index shows it at `createdMs` instead. */
	repost?: { atMs: number; createdMs: number };
}

/** Where the index shows a job at `indexMs`: its createdAt then, or undefined when it does not show it. */
export function standingAt(job: IndexedJob, indexMs: number): number | undefined {
	if (job.visibleMs > indexMs || (job.goneMs !== undefined && job.goneMs <= indexMs)) return undefined;
	return job.repost && job.repost.atMs <= indexMs ? job.repost.createdMs : job.createdMs;
}

export const shownAt = (job: IndexedJob, indexMs: number) => standingAt(job, indexMs) !== undefined;

/** A key's rate limit shared by every trigger that uses it: a sliding window, as the service counts. */
export class SharedKey {
	private readonly sent: number[] = [];
	rejected = 0;
	constructor(
		readonly perMinute: number,
		readonly windowMs = MINUTE,
	) {}

	/** The wait a 429 asks for, or 0 when the request may go (it is then counted). */
	admit(nowMs: number): number {
		while (this.sent.length > 0 && this.sent[0] <= nowMs - this.windowMs) this.sent.shift();
		if (this.sent.length >= this.perMinute) {
			this.rejected++;
			return this.sent[0] + this.windowMs - nowMs;
		}
		this.sent.push(nowMs);
		return 0;
	}
}

/** How the index answers beyond the jobs it holds. */
export interface IndexBehaviour {
	/** Totals of 1,000 or more are rounded down to a thousand and capped at 10,000, as search engines report them. */
	roundTotals?: boolean;
	/** Jobs that share a createdAt come back in a different order on every request. */
	unstableTies?: boolean;
	/** n8n's clock minus the index's clock. */
	skewMs?: number;
	/** The key's rate limit, shared with whatever else uses it. */
	key?: SharedKey;
	/** A share of requests answered 429 (another workflow on the key) or 500, at random. */
	share429?: number;
	share500?: number;
	/** The wait a random 429 asks for. */
	retryAfterMs?: number;
	/** The random 429s and 500s start at this moment (n8n's clock). */
	faultsFromMs?: number;
	/** Hosts that deviate from the contract in ordinary ways: a search engine in front of the service. */
	/** fromDate rounded down and toDate rounded up to this many ms (60,000: whole minutes), to cache them. */
	roundBoundsMs?: number;
	/** At most this many rows a page, whatever `limit` asks (an upstream page size); `total` stays exact. */
	pageCap?: number;
	/** Every n-th row of a page comes twice (a join fanning out); `total` counts distinct uids. */
	repeatEvery?: number;
	/** This share of pages leave out one of their rows shown in the last LEFT_OUT_WITHIN_MS (a replica slow to take it in); `total` still counts it. */
	leaveOutShare?: number;
	/** createdAt written down to this many ms (1,000: whole seconds) while the bounds compare the index's own milliseconds. */
	writesCreatedAtToMs?: number;
	/** A share of jobs that, once shown, drop out of answers and totals now and then (a replica out of step) and are shown for good from their createdAt plus `withinMs` on (DESIGN.md, assumption 1). */
	dropsOut?: { share: number; withinMs: number };
	/** Moments (n8n's clock) during which every request is answered 503. */
	outages?: { fromMs: number; toMs: number }[];
	seed?: number;
}

/** A failure the model throws, with what it means (the trigger's classify reads it). */
export class ModelFailure extends Error {
	constructor(
		message: string,
		readonly meaning: FailureKind,
	) {
		super(message);
	}
}

export const classifyModelFailure = (error: Error): FailureKind => (error instanceof ModelFailure ? error.meaning : { kind: 'lasting' });

const serviceOrder = (a: Entry, b: Entry) => b.createdMs - a.createdMs || b.job.uid.length - a.job.uid.length || (a.job.uid < b.job.uid ? 1 : a.job.uid > b.job.uid ? -1 : 0);

interface Entry {
	job: IndexedJob;
	createdMs: number;
}

/** Whether a job of IndexBehaviour.dropsOut is out of the answers at `indexMs`: 1 to 8 minutes of every 10 to 30 after it shows, until its createdAt plus `withinMs`. */
function droppedOut(job: IndexedJob, indexMs: number, behaviour: IndexBehaviour): boolean {
	const { dropsOut } = behaviour;
	if (!dropsOut || indexMs >= job.createdMs + dropsOut.withinMs) return false;
	const random = seededRandom(seedFromText(job.uid, behaviour.seed ?? 1));
	if (random() >= dropsOut.share) return false;
	const periodMs = 10 * MINUTE + random() * 20 * MINUTE;
	const outMs = MINUTE + random() * 7 * MINUTE;
	return (indexMs - job.visibleMs + random() * periodMs) % periodMs < outMs;
}

function firstAtOrAfter(entries: Entry[], ms: number): number {
	let lo = 0;
	let hi = entries.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (entries[mid].createdMs < ms) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/**
 * The service's search over the jobs, on n8n's clock `clock.ms`. `requests` records every
 * request (with n8n's time) for a test to read.
 */
export function arrayIndex(jobs: IndexedJob[], clock: { ms: number }, behaviour: IndexBehaviour = {}) {
	const requests: (PageRequest & { atMs: number })[] = [];
	// Every place a job can stand, by createdAt; rebuilt when a test adds jobs (a job's own fields,
	// such as when it is removed, are read at each request).
	let entries: Entry[] = [];
	let indexed = -1;
	const reindex = () => {
		if (indexed === jobs.length) return;
		entries = [];
		for (const job of jobs) {
			entries.push({ job, createdMs: job.createdMs });
			if (job.repost) entries.push({ job, createdMs: job.repost.createdMs });
		}
		entries.sort((a, b) => a.createdMs - b.createdMs);
		indexed = jobs.length;
	};
	const random = seededRandom(behaviour.seed ?? 1);
	let rows = 0;
	let failures = 0;
	const fetchPage: FetchPage = async (request) => {
		requests.push({ ...request, atMs: clock.ms });
		// As strict as a host may be where the contract is silent: a window that ends before it starts is bad input.
		if (request.toMs !== undefined && request.fromMs > request.toMs) throw new ModelFailure('400 fromDate is after toDate', { kind: 'lasting' });
		const wait = behaviour.key?.admit(clock.ms) ?? 0;
		if (wait > 0) throw new ModelFailure('429 rate limited', { kind: 'rate-limited', retryAfterMs: wait });
		const faulty = clock.ms >= (behaviour.faultsFromMs ?? -Infinity);
		if (faulty && behaviour.share429 && random() < behaviour.share429) {
			failures++;
			throw new ModelFailure('429 rate limited (shared key)', { kind: 'rate-limited', retryAfterMs: behaviour.retryAfterMs ?? 20_000 });
		}
		if (faulty && behaviour.share500 && random() < behaviour.share500) {
			failures++;
			throw new ModelFailure('500 internal fault', { kind: 'passing' });
		}
		if (behaviour.outages?.some((o) => clock.ms >= o.fromMs && clock.ms < o.toMs)) {
			failures++;
			throw new ModelFailure('503 service unavailable', { kind: 'passing' });
		}
		reindex();
		const indexMs = clock.ms - (behaviour.skewMs ?? 0);
		const step = behaviour.roundBoundsMs;
		const fromMs = step && Number.isFinite(request.fromMs) ? Math.floor(request.fromMs / step) * step : request.fromMs;
		const toMs = step && request.toMs !== undefined ? Math.ceil(request.toMs / step) * step : request.toMs;
		const from = Number.isFinite(fromMs) ? firstAtOrAfter(entries, fromMs) : 0;
		const matches: Entry[] = [];
		for (let i = from; i < entries.length; i++) {
			const entry = entries[i];
			if (toMs !== undefined && entry.createdMs > toMs) break;
			if (standingAt(entry.job, indexMs) === entry.createdMs && !droppedOut(entry.job, indexMs, behaviour)) matches.push(entry);
		}
		matches.sort(serviceOrder);
		if (behaviour.unstableTies) shuffleTies(matches, random);
		const shown = matches.slice(0, Math.min(request.limit, behaviour.pageCap ?? Infinity));
		const recent = shown.filter((e) => e.job.visibleMs > indexMs - LEFT_OUT_WITHIN_MS);
		if (behaviour.leaveOutShare && recent.length > 0 && random() < behaviour.leaveOutShare) shown.splice(shown.indexOf(recent[Math.floor(random() * recent.length)]), 1);
		const repeated = behaviour.repeatEvery ? shown.flatMap((e, i) => ((i + 1) % behaviour.repeatEvery! === 0 ? [e, e] : [e])).slice(0, request.limit) : shown;
		const written = (ms: number) => (behaviour.writesCreatedAtToMs ? Math.floor(ms / behaviour.writesCreatedAtToMs) * behaviour.writesCreatedAtToMs : ms);
		const page = repeated.map((e) => ({ uid: e.job.uid, createdAt: new Date(written(e.createdMs)).toISOString() }));
		rows += page.length;
		const total = behaviour.roundTotals && matches.length >= 1_000 ? Math.min(10_000, Math.floor(matches.length / 1_000) * 1_000) : matches.length;
		const answer: Page = { jobs: page, total, consumedMicrocents: page.length * ROW_PRICE, remainingMicrocents: 1e12 };
		return answer;
	};
	return { fetchPage, requests, rows: () => rows, failures: () => failures };
}

/** Shuffles each run of jobs sharing a createdAt, in place. */
function shuffleTies(entries: Entry[], random: () => number): void {
	let start = 0;
	while (start < entries.length) {
		let end = start + 1;
		while (end < entries.length && entries[end].createdMs === entries[start].createdMs) end++;
		for (let i = end - 1; i > start; i--) {
			const j = start + Math.floor(random() * (i - start + 1));
			[entries[i], entries[j]] = [entries[j], entries[i]];
		}
		start = end;
	}
}

export type IndexShape = 'batch' | 'out-of-order';

export interface ShapeOptions {
	shape: IndexShape;
	seed: number;
	fromMs: number;
	toMs: number;
	/** Matching postings an hour. */
	perHour: number;
	/** Share shown one refresh late (batch) or 16 to 40 minutes after posting (out of order). */
	stragglerShare: number;
	/** Share removed again, within `removalWithinMs` of showing. */
	removalShare: number;
	removalWithinMs: number;
	/** Share posted again under the same uid, 20 to 60 minutes later. */
	repostShare?: number;
	/** createdAt rounded down to this many ms (1,000: whole seconds), so jobs share a millisecond. */
	roundToMs?: number;
	/** Bulk imports: `count` postings within `spreadMs` from `atMs`, shown out of order. */
	bursts?: { atMs: number; count: number; spreadMs: number }[];
}

/** The two index shapes with 4% stragglers and 3% removed within 30 minutes of showing. */
export const HARSH: Omit<ShapeOptions, 'shape' | 'seed' | 'fromMs' | 'toMs'> = {
	perHour: 32,
	stragglerShare: 0.04,
	removalShare: 0.03,
	removalWithinMs: 30 * MINUTE,
};

/**
 * Postings at random moments, each shown by the shape's rule:
 * - batch: the index refreshes every 5 to 15 minutes and shows what was posted before the
 *   refresh; a straggler waits for the refresh after;
 * - out of order: each posting is shown 1 to 16 minutes after it was posted, independently (an
 *   index fed by scrapers out of step); a straggler 16 to 40 minutes after.
 * Bursts are shown out of order in either shape.
 */
export function generateIndex(options: ShapeOptions): IndexedJob[] {
	const random = seededRandom(options.seed);
	const refreshes: number[] = [options.fromMs - 15 * MINUTE];
	while (refreshes[refreshes.length - 1] < options.toMs + 4 * 15 * MINUTE) {
		refreshes.push(refreshes[refreshes.length - 1] + 5 * MINUTE + Math.floor(random() * 10 * MINUTE));
	}
	const refreshAfter = (ms: number) => refreshes.findIndex((r) => r >= ms);
	const round = (ms: number) => (options.roundToMs ? Math.floor(ms / options.roundToMs) * options.roundToMs : ms);
	const lagOf = (straggles: boolean) => (straggles ? 16 * MINUTE + random() * 24 * MINUTE : MINUTE + random() * 15 * MINUTE);
	const times: { createdMs: number; burst: boolean }[] = [];
	const meanGapMs = 3_600_000 / options.perHour;
	let t = options.fromMs - 90 * MINUTE;
	while (true) {
		t += Math.max(1, Math.round(-Math.log(1 - random()) * meanGapMs));
		if (t >= options.toMs) break;
		times.push({ createdMs: t, burst: false });
	}
	for (const burst of options.bursts ?? []) {
		for (let i = 0; i < burst.count; i++) times.push({ createdMs: burst.atMs + Math.floor(random() * burst.spreadMs), burst: true });
	}
	times.sort((a, b) => a.createdMs - b.createdMs);
	const jobs: IndexedJob[] = [];
	let serial = 0;
	for (const { createdMs: rawMs, burst } of times) {
		const createdMs = round(rawMs);
		const straggles = random() < options.stragglerShare;
		let visibleMs: number;
		if (options.shape === 'batch' && !burst) {
			const k = refreshAfter(createdMs + 1);
			visibleMs = refreshes[straggles ? k + 1 : k];
		} else {
			visibleMs = createdMs + lagOf(straggles);
		}
		visibleMs = Math.round(visibleMs);
		const removed = random() < options.removalShare;
		const goneMs = removed ? visibleMs + 1 + Math.floor(random() * options.removalWithinMs) : undefined;
		const job: IndexedJob = { uid: String(1_000_000 + serial++), createdMs, visibleMs, goneMs };
		if (!removed && options.repostShare && random() < options.repostShare) {
			const repostedMs = round(createdMs + 20 * MINUTE + Math.floor(random() * 40 * MINUTE));
			job.repost = { createdMs: repostedMs, atMs: Math.round(repostedMs + lagOf(false)) };
		}
		jobs.push(job);
	}
	return jobs;
}
