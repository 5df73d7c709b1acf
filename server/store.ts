import type { Clock } from './clock';
import { completeJob, generateJob, type DeepPartial } from './generator';
import type { Job } from './model';
import { seededRandom, seedFromText } from './random';

/** A visible job with what the search reads most, parsed once. */
export interface Entry {
	job: Job;
	createdMs: number;
}

/**
 * Live mode: new postings keep arriving by the clock. Two shapes of index:
 * - `batch` (the default, as the public deployment describes its index): the index refreshes every
 *   `refreshMinMs` to `refreshMaxMs` and then shows what was posted since the previous refresh;
 *   a share of postings (`stragglerShare`) straggles to the refresh after.
 * - `out-of-order` (an index fed by several scrapers out of step): each posting is shown
 *   `minLagMs` to `maxLagMs` after it was posted, independently of the others; a straggler up to
 *   `maxLagMs` later again.
 * - `lag`: the older option shape, `out-of-order` without stragglers or removals.
 * In both shapes a share of postings (`removalShare`) is removed again (closed or made private)
 * `removalMinMs` to `removalMaxMs` after it was shown. Without `model`, giving `minLagMs` or
 * `maxLagMs` picks `lag`.
 */
export interface LiveOptions {
	model?: 'batch' | 'out-of-order' | 'lag';
	postingsPerHour?: number;
	refreshMinMs?: number;
	refreshMaxMs?: number;
	stragglerShare?: number;
	removalShare?: number;
	removalMinMs?: number;
	removalMaxMs?: number;
	minLagMs?: number;
	maxLagMs?: number;
}

export interface StoreOptions {
	clock: Clock;
	seed: number;
	jobs: number;
	live?: LiveOptions;
}

export type ScriptedJob = DeepPartial<Job> & { visibleAt?: number };

const DAY_MS = 24 * 60 * 60 * 1000;
// Seeded jobs spread over the last 30 days, as the public index holds.
const SEEDED_SPAN_MS = 30 * DAY_MS;
// Live arrivals older than this are never generated, so a clock jumped far ahead costs bounded work.
const LIVE_CATCH_UP_LIMIT_MS = 30 * DAY_MS;
// The public index refreshes every 5 to 15 minutes (docs/service.md#freshness); "a few" stragglers and
// removals are ours: 2% and 1%, removed between 10 minutes and 6 hours after being shown. The
// out-of-order shape shows each posting 1 to 16 minutes after it was posted.
const DEFAULT_LIVE: Required<LiveOptions> = {
	model: 'batch',
	postingsPerHour: 60,
	refreshMinMs: 5 * 60_000,
	refreshMaxMs: 15 * 60_000,
	stragglerShare: 0.02,
	removalShare: 0.01,
	removalMinMs: 10 * 60_000,
	removalMaxMs: 6 * 60 * 60_000,
	minLagMs: 60_000,
	maxLagMs: 16 * 60_000,
};
// Below this many new entries a splice is cheaper than a merge of the whole index.
const SPLICE_BATCH_LIMIT = 32;

/** Newest first, then uid descending (docs/service.md#order). Uids compare as numbers written in digits. */
export function compareEntries(a: Entry, b: Entry): number {
	if (a.createdMs !== b.createdMs) return b.createdMs - a.createdMs;
	return compareUidDesc(a.job.uid, b.job.uid);
}

function compareUidDesc(a: string, b: string): number {
	if (a.length !== b.length) return b.length - a.length;
	return a < b ? 1 : a > b ? -1 : 0;
}

/** The first index in [0, length) for which `ahead(index)` is false, where it is true up to some index and false after. */
function firstIndexNotAhead(length: number, ahead: (index: number) => boolean): number {
	let lo = 0;
	let hi = length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (ahead(mid)) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** First index whose entry is at or before `ms` (entries are newest first). */
export function firstAtOrBefore(entries: readonly Entry[], ms: number): number {
	return firstIndexNotAhead(entries.length, (i) => entries[i].createdMs > ms);
}

/** First index whose entry is strictly before `ms`. */
export function firstBefore(entries: readonly Entry[], ms: number): number {
	return firstIndexNotAhead(entries.length, (i) => entries[i].createdMs >= ms);
}

function mergeSorted(into: Entry[], batch: Entry[]): Entry[] {
	if (batch.length <= SPLICE_BATCH_LIMIT) {
		for (const entry of batch) into.splice(firstIndexNotAhead(into.length, (i) => compareEntries(into[i], entry) < 0), 0, entry);
		return into;
	}
	const sorted = [...batch].sort(compareEntries);
	const out: Entry[] = new Array(into.length + sorted.length);
	let i = 0;
	let j = 0;
	let k = 0;
	while (i < into.length && j < sorted.length) out[k++] = compareEntries(into[i], sorted[j]) <= 0 ? into[i++] : sorted[j++];
	while (i < into.length) out[k++] = into[i++];
	while (j < sorted.length) out[k++] = sorted[j++];
	return out;
}

interface Pending {
	entry: Entry;
	visibleAt: number;
}

/**
 * The job index: every visible job, newest first, plus the same per category, so a search only
 * walks the time window of the categories it asks for. Jobs not yet visible (ingestion lag) wait
 * in `pending` until the clock reaches them.
 */
export class JobStore {
	private entries: Entry[] = [];
	private byCategory = new Map<string, Entry[]>();
	private byUid = new Map<string, Entry>();
	private pending: Pending[] = [];
	private removals: { uid: string; at: number }[] = [];
	private nextSerial = 0;
	private readonly live?: Required<LiveOptions> & { startMs: number; next: number; refreshes: number[] };

	constructor(private readonly options: StoreOptions) {
		const now = options.clock.now();
		const random = seededRandom(options.seed);
		// Times first, then serials in time order, so uids grow with createdAt as upstream.
		const times = Array.from({ length: options.jobs }, () => now - Math.floor(random() * SEEDED_SPAN_MS)).sort((a, b) => a - b);
		this.addVisible(times.map((ms) => this.entryOf(generateJob(random, this.nextSerial++, ms))));
		if (options.live) {
			const lagGiven = options.live.minLagMs !== undefined || options.live.maxLagMs !== undefined;
			const live = { ...DEFAULT_LIVE, ...(lagGiven && !options.live.model ? { model: 'lag' as const } : {}), ...options.live };
			if (live.postingsPerHour <= 0 || live.minLagMs < 0 || live.maxLagMs < live.minLagMs) {
				throw new Error('live: postingsPerHour must be positive and 0 <= minLagMs <= maxLagMs');
			}
			if (live.refreshMinMs <= 0 || live.refreshMaxMs < live.refreshMinMs || live.removalMaxMs < live.removalMinMs) {
				throw new Error('live: 0 < refreshMinMs <= refreshMaxMs and removalMinMs <= removalMaxMs');
			}
			this.live = { ...live, startMs: now, next: 0, refreshes: [now] };
		}
	}

	/** Everything a search may see now, newest first. */
	visible(): readonly Entry[] {
		this.catchUp();
		return this.entries;
	}

	visibleInCategory(category: string): readonly Entry[] {
		this.catchUp();
		return this.byCategory.get(category) ?? [];
	}

	/** A visible job by uid: a posting still in ingestion is not found, as upstream. */
	get(uid: string): Job | undefined {
		this.catchUp();
		return this.byUid.get(uid)?.job;
	}

	/** Takes jobs out of the index, as upstream does when a job is closed or made private. */
	remove(uids: readonly string[]): number {
		const gone = new Set(uids.filter((uid) => this.byUid.has(uid)));
		this.pending = this.pending.filter((p) => !uids.includes(p.entry.job.uid));
		if (gone.size === 0) return 0;
		const keep = (entry: Entry) => !gone.has(entry.job.uid);
		this.entries = this.entries.filter(keep);
		for (const [category, list] of this.byCategory) this.byCategory.set(category, list.filter(keep));
		for (const uid of gone) this.byUid.delete(uid);
		return gone.size;
	}

	add(scripted: readonly ScriptedJob[]): Job[] {
		const now = this.options.clock.now();
		const visibleNow: Entry[] = [];
		const jobs = scripted.map(({ visibleAt, ...override }, index) => {
			const createdMs = override.createdAt !== undefined ? Date.parse(override.createdAt) : now;
			if (Number.isNaN(createdMs)) throw new Error(`addJobs[${index}]: createdAt is not a date`);
			if (override.uid !== undefined && !/^[0-9]+$/.test(override.uid)) throw new Error(`addJobs[${index}]: uid must be digits`);
			const random = seededRandom(seedFromText(`scripted:${this.nextSerial}`, this.options.seed));
			const job = completeJob(generateJob(random, this.nextSerial++, createdMs), override);
			if (this.byUid.has(job.uid) || this.pending.some((p) => p.entry.job.uid === job.uid)) {
				throw new Error(`addJobs[${index}]: uid ${job.uid} already exists`);
			}
			const entry = this.entryOf(job);
			const at = visibleAt ?? createdMs;
			if (at <= now) visibleNow.push(entry);
			else this.pending.push({ entry, visibleAt: at });
			return job;
		});
		this.addVisible(visibleNow);
		return jobs;
	}

	private entryOf(job: Job): Entry {
		return { job, createdMs: Date.parse(job.createdAt) };
	}

	private addVisible(batch: Entry[]): void {
		if (batch.length === 0) return;
		this.entries = mergeSorted(this.entries, batch);
		const perCategory = new Map<string, Entry[]>();
		for (const entry of batch) {
			this.byUid.set(entry.job.uid, entry);
			const list = perCategory.get(entry.job.category) ?? [];
			list.push(entry);
			perCategory.set(entry.job.category, list);
		}
		for (const [category, list] of perCategory) {
			this.byCategory.set(category, mergeSorted(this.byCategory.get(category) ?? [], list));
		}
	}

	/** Brings live arrivals and lagged postings up to the clock. Cheap when nothing is due. */
	private catchUp(): void {
		const now = this.options.clock.now();
		if (this.live) this.generateArrivals(now);
		if (this.pending.length > 0) {
			const due = this.pending.filter((p) => p.visibleAt <= now);
			if (due.length > 0) {
				this.pending = this.pending.filter((p) => p.visibleAt > now);
				this.addVisible(due.map((p) => p.entry));
			}
		}
		if (this.removals.length > 0 && this.removals.some((r) => r.at <= now)) {
			this.remove(this.removals.filter((r) => r.at <= now).map((r) => r.uid));
			this.removals = this.removals.filter((r) => r.at > now);
		}
	}

	/** The first index refresh at or after `ms` (batch model); refresh times are drawn as needed. */
	private refreshAtOrAfter(ms: number): { at: number; next: number } {
		const live = this.live!;
		const { refreshes } = live;
		// Drawn until the refresh after the one wanted exists, so `next` is always there.
		while (refreshes.length < 2 || refreshes[refreshes.length - 2] < ms) {
			const k = refreshes.length;
			const random = seededRandom(seedFromText(`refresh:${k}`, this.options.seed));
			refreshes.push(refreshes[k - 1] + live.refreshMinMs + Math.floor(random() * (live.refreshMaxMs - live.refreshMinMs + 1)));
		}
		const at = firstIndexNotAhead(refreshes.length - 1, (i) => refreshes[i] < ms);
		return { at: refreshes[at], next: refreshes[at + 1] };
	}

	/** When a live posting becomes visible, and when (if ever) it is removed again. */
	private fateOf(index: number, createdMs: number, lagRandom: () => number): { visibleAt: number; removeAt?: number } {
		const live = this.live!;
		const lag = () => live.minLagMs + Math.floor(lagRandom() * (live.maxLagMs - live.minLagMs + 1));
		if (live.model === 'lag') return { visibleAt: createdMs + lag() };
		// A stream of its own, so the postings themselves are the same in every model.
		const random = seededRandom(seedFromText(`fate:${index}`, this.options.seed));
		const straggles = random() < live.stragglerShare;
		let visibleAt: number;
		if (live.model === 'out-of-order') {
			visibleAt = createdMs + lag() + (straggles ? live.maxLagMs : 0);
		} else {
			const refresh = this.refreshAtOrAfter(createdMs);
			visibleAt = straggles ? refresh.next : refresh.at;
		}
		if (random() >= live.removalShare) return { visibleAt };
		const delay = live.removalMinMs + Math.floor(random() * (live.removalMaxMs - live.removalMinMs + 1));
		// A batch index removes at a refresh; the other shape at any moment.
		return { visibleAt, removeAt: live.model === 'batch' ? this.refreshAtOrAfter(visibleAt + delay).at : visibleAt + delay };
	}

	private generateArrivals(now: number): void {
		const live = this.live!;
		const intervalMs = 3_600_000 / live.postingsPerHour;
		const arrivalAt = (index: number) => live.startMs + Math.round((index + 1) * intervalMs);
		const oldestWorthGenerating = now - LIVE_CATCH_UP_LIMIT_MS;
		if (arrivalAt(live.next) < oldestWorthGenerating) {
			live.next = Math.max(live.next, Math.ceil((oldestWorthGenerating - live.startMs) / intervalMs) - 1);
		}
		for (; arrivalAt(live.next) <= now; live.next++) {
			// Each arrival has its own stream, so skipping ahead never changes the ones that follow.
			const random = seededRandom(seedFromText(`live:${live.next}`, this.options.seed));
			const createdMs = arrivalAt(live.next);
			const fate = this.fateOf(live.next, createdMs, random);
			const entry = this.entryOf(generateJob(random, this.nextSerial++, createdMs));
			this.pending.push({ entry, visibleAt: fate.visibleAt });
			if (fate.removeAt !== undefined) this.removals.push({ uid: entry.job.uid, at: fate.removeAt });
		}
	}
}
