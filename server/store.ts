import type { Clock } from './clock';
import { completeJob, generateJob, type DeepPartial } from './generator';
import { resolveLiveOptions, type LiveOptions, type ResolvedLive } from './liveOptions';
import type { Job } from './model';
import { seededRandom, seedFromText, type Random } from './random';
import type { AnswerShape } from './search';

export type { Burst, LiveOptions } from './liveOptions';

/** A visible job with what the search reads most, parsed once. */
export interface Entry {
	job: Job;
	createdMs: number;
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

/** Where `entry` sits in `list` (newest first), or -1: createdAt and uid place an entry exactly. */
function indexOfEntry(list: readonly Entry[], entry: Entry): number {
	const at = firstIndexNotAhead(list.length, (i) => compareEntries(list[i], entry) < 0);
	return list[at] === entry ? at : -1;
}

/** Takes `gone` out of `list`: one splice each when few, else one pass. */
function withoutEntries(list: Entry[], gone: readonly Entry[]): Entry[] {
	if (gone.length <= SPLICE_BATCH_LIMIT) {
		for (const entry of gone) {
			const at = indexOfEntry(list, entry);
			if (at >= 0) list.splice(at, 1);
		}
		return list;
	}
	const drop = new Set(gone);
	return list.filter((entry) => !drop.has(entry));
}

interface Pending {
	entry: Entry;
	visibleAt: number;
}

/** A posting made again under its uid: shown at `createdMs` from `at` on. */
interface Repost {
	uid: string;
	at: number;
	createdMs: number;
}

interface LiveState extends ResolvedLive {
	startMs: number;
	/** The next regular arrival to generate, by number. */
	next: number;
	/** Its time, for poisson arrivals, whose gaps come from one stream in order. */
	nextPoissonMs: number;
	gaps: Random;
	refreshes: number[];
	/** Every burst posting's raw createdAt and name, in time order, and the next to generate. */
	burstPostings: { rawMs: number; name: string }[];
	nextBurst: number;
}

/** The visible entries that pass a search's filters, newest first, kept up to date as the index changes. */
interface StandingFilter {
	passes: (job: Job) => boolean;
	entries: Entry[];
}

// Searches repeat a handful of filters (a trigger asks the same one every poll); beyond this many,
// the least recently asked is dropped and rebuilt if asked again.
const MAX_STANDING_FILTERS = 16;

const MINUTE_MS = 60_000;
// A repost comes 20 to 60 minutes after the posting, as the trigger's test model has it.
const REPOST_MIN_MS = 20 * MINUTE_MS;
const REPOST_SPAN_MS = 40 * MINUTE_MS;

/**
 * The job index: every visible job, newest first, plus the same per category, so a search only
 * walks the time window of the categories it asks for. Jobs not yet visible (ingestion lag) wait
 * in `pending` until the index's clock reaches them.
 */
export class JobStore {
	private entries: Entry[] = [];
	private byCategory = new Map<string, Entry[]>();
	private byUid = new Map<string, Entry>();
	private standing = new Map<string, StandingFilter>();
	private pending: Pending[] = [];
	private removals: { uid: string; at: number }[] = [];
	private reposts: Repost[] = [];
	private nextSerial = 0;
	private readonly live?: LiveState;
	private readonly shape: AnswerShape;

	constructor(private readonly options: StoreOptions) {
		if (options.live) {
			const live = resolveLiveOptions(options.live);
			const startMs = options.clock.now() - live.skewMs;
			const burstPostings = live.bursts.flatMap((burst, b) => {
				const random = seededRandom(seedFromText(`burst:${b}`, options.seed));
				return Array.from({ length: burst.count }, (_, i) => ({ rawMs: burst.atMs + Math.floor(random() * burst.spreadMs), name: `burst:${b}:${i}` }));
			});
			burstPostings.sort((a, b) => a.rawMs - b.rawMs);
			const gaps = seededRandom(seedFromText('gaps', options.seed));
			this.live = { ...live, startMs, next: 0, nextPoissonMs: startMs, gaps, refreshes: [startMs], burstPostings, nextBurst: 0 };
			if (live.arrivals === 'poisson') this.live.nextPoissonMs += this.poissonGap();
		}
		this.shape = {
			approximateTotals: this.live?.approximateTotals === true,
			tieOrder: this.live?.unstableTieOrder ? seededRandom(seedFromText('ties', options.seed)) : undefined,
		};
		const now = this.now();
		const random = seededRandom(options.seed);
		// Times first, then serials in time order, so uids grow with createdAt as upstream.
		const times = Array.from({ length: options.jobs }, () => this.round(now - Math.floor(random() * SEEDED_SPAN_MS))).sort((a, b) => a - b);
		this.addVisible(times.map((ms) => this.entryOf(generateJob(random, this.nextSerial++, ms))));
	}

	/** The index's clock: the server's, less live mode's skew. createdAt and visibility are on it. */
	now(): number {
		return this.options.clock.now() - (this.live?.skewMs ?? 0);
	}

	/** How a search answers beyond the jobs it finds (live mode's approximateTotals and unstableTieOrder). */
	answerShape(): AnswerShape {
		return this.shape;
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

	/**
	 * What is visible and passes `passes`, newest first: kept like the category index, so a
	 * filtered search over a busy day reads its window, not every job in it. `key` names the filter
	 * (the same key must always come with the same test).
	 */
	visibleMatching(key: string, passes: (job: Job) => boolean): readonly Entry[] {
		this.catchUp();
		let filter = this.standing.get(key);
		if (filter) {
			this.standing.delete(key);
		} else {
			filter = { passes, entries: this.entries.filter((entry) => passes(entry.job)) };
			if (this.standing.size >= MAX_STANDING_FILTERS) this.standing.delete(this.standing.keys().next().value!);
		}
		this.standing.set(key, filter);
		return filter.entries;
	}

	/** A visible job by uid: a posting still in ingestion is not found, as upstream. */
	get(uid: string): Job | undefined {
		this.catchUp();
		return this.byUid.get(uid)?.job;
	}

	/** Takes jobs out of the index, as upstream does when a job is closed or made private. */
	remove(uids: readonly string[]): number {
		const wanted = new Set(uids);
		this.pending = this.pending.filter((p) => !wanted.has(p.entry.job.uid));
		this.reposts = this.reposts.filter((r) => !wanted.has(r.uid));
		const gone = [...wanted].map((uid) => this.byUid.get(uid)).filter((entry): entry is Entry => entry !== undefined);
		this.detach(gone);
		return gone.length;
	}

	add(scripted: readonly ScriptedJob[]): Job[] {
		const now = this.now();
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

	private round(ms: number): number {
		const step = this.live?.roundCreatedAtMs ?? 0;
		return step > 0 ? Math.floor(ms / step) * step : ms;
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
		for (const filter of this.standing.values()) {
			const passing = batch.filter((entry) => filter.passes(entry.job));
			if (passing.length > 0) filter.entries = mergeSorted(filter.entries, passing);
		}
	}

	private detach(gone: readonly Entry[]): void {
		if (gone.length === 0) return;
		this.entries = withoutEntries(this.entries, gone);
		const perCategory = new Map<string, Entry[]>();
		for (const entry of gone) {
			this.byUid.delete(entry.job.uid);
			perCategory.set(entry.job.category, [...(perCategory.get(entry.job.category) ?? []), entry]);
		}
		for (const [category, list] of perCategory) {
			this.byCategory.set(category, withoutEntries(this.byCategory.get(category) ?? [], list));
		}
		for (const filter of this.standing.values()) {
			const passing = gone.filter((entry) => filter.passes(entry.job));
			if (passing.length > 0) filter.entries = withoutEntries(filter.entries, passing);
		}
	}

	/** Brings live arrivals, lagged postings, reposts and removals up to the index's clock. Cheap when nothing is due. */
	private catchUp(): void {
		const now = this.now();
		if (this.live) this.generateArrivals(now);
		if (this.pending.length > 0) {
			const due = this.pending.filter((p) => p.visibleAt <= now);
			if (due.length > 0) {
				this.pending = this.pending.filter((p) => p.visibleAt > now);
				this.addVisible(due.map((p) => p.entry));
			}
		}
		if (this.reposts.length > 0 && this.reposts.some((r) => r.at <= now)) {
			this.applyReposts(this.reposts.filter((r) => r.at <= now));
			this.reposts = this.reposts.filter((r) => r.at > now);
		}
		if (this.removals.length > 0 && this.removals.some((r) => r.at <= now)) {
			this.remove(this.removals.filter((r) => r.at <= now).map((r) => r.uid));
			this.removals = this.removals.filter((r) => r.at > now);
		}
	}

	/**
	 * A shown job moves to its new createdAt in one step, so no search sees it twice; one still in
	 * ingestion will be shown at the new createdAt straight away, as a repost shown first would.
	 */
	private applyReposts(due: readonly Repost[]): void {
		const moved: Entry[] = [];
		const fresh: Entry[] = [];
		for (const repost of due) {
			const reposted = (job: Job) => this.entryOf({ ...job, createdAt: new Date(repost.createdMs).toISOString() });
			const shown = this.byUid.get(repost.uid);
			if (shown) {
				moved.push(shown);
				fresh.push(reposted(shown.job));
				continue;
			}
			const waiting = this.pending.find((p) => p.entry.job.uid === repost.uid);
			if (waiting) waiting.entry = reposted(waiting.entry.job);
		}
		this.detach(moved);
		this.addVisible(fresh);
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

	private lagOf(random: Random): number {
		const live = this.live!;
		return live.minLagMs + Math.floor(random() * (live.maxLagMs - live.minLagMs + 1));
	}

	/**
	 * When a live posting becomes visible, and when (if ever) it is removed again. A burst is
	 * shown out of order whatever the model, as a bulk import is.
	 */
	private fateOf(name: string, createdMs: number, lagRandom: Random, burst: boolean): { visibleAt: number; removeAt?: number } {
		const live = this.live!;
		if (live.model === 'lag') return { visibleAt: createdMs + this.lagOf(lagRandom) };
		const outOfOrder = burst || live.model === 'out-of-order';
		// A stream of its own, so the postings themselves are the same in every model.
		const random = seededRandom(seedFromText(`fate:${name}`, this.options.seed));
		const straggles = random() < live.stragglerShare;
		let visibleAt: number;
		if (outOfOrder) {
			visibleAt = createdMs + this.lagOf(lagRandom) + (straggles ? live.maxLagMs : 0);
		} else {
			const refresh = this.refreshAtOrAfter(createdMs);
			visibleAt = straggles ? refresh.next : refresh.at;
		}
		if (random() >= live.removalShare) return { visibleAt };
		const delay = live.removalMinMs + Math.floor(random() * (live.removalMaxMs - live.removalMinMs + 1));
		// A batch index removes at a refresh; the other shape at any moment.
		return { visibleAt, removeAt: outOfOrder ? visibleAt + delay : this.refreshAtOrAfter(visibleAt + delay).at };
	}

	/** Whether a posting is made again later, and when: a stream of its own, so reposts change no other draw. */
	private repostOf(name: string, createdMs: number): { at: number; createdMs: number } | undefined {
		const live = this.live!;
		if (live.repostShare === 0) return undefined;
		const random = seededRandom(seedFromText(`repost:${name}`, this.options.seed));
		if (random() >= live.repostShare) return undefined;
		const repostedMs = this.round(createdMs + REPOST_MIN_MS + Math.floor(random() * REPOST_SPAN_MS));
		return { at: repostedMs + this.lagOf(random), createdMs: repostedMs };
	}

	private poissonGap(): number {
		const live = this.live!;
		return Math.max(1, Math.round(-Math.log(1 - live.gaps()) * (3_600_000 / live.postingsPerHour)));
	}

	/** The raw createdAt of regular arrival number `live.next`. */
	private nextArrivalMs(): number {
		const live = this.live!;
		if (live.arrivals === 'poisson') return live.nextPoissonMs;
		const intervalMs = 3_600_000 / live.postingsPerHour;
		// The deployment's createdAt carry milliseconds; on a regular beat alone they would share the start's.
		const jitterMs = Math.floor(seededRandom(seedFromText(`ms:${live.next}`, this.options.seed))() * Math.min(1000, intervalMs));
		return live.startMs + Math.round((live.next + 1) * intervalMs) + jitterMs;
	}

	private skipArrival(): void {
		const live = this.live!;
		live.next++;
		if (live.arrivals === 'poisson') live.nextPoissonMs += this.poissonGap();
	}

	/** Regular arrivals and burst postings up to `now`, in createdAt order so that serials (uids) grow with it. */
	private generateArrivals(now: number): void {
		const live = this.live!;
		const oldestWorthGenerating = now - LIVE_CATCH_UP_LIMIT_MS;
		if (this.nextArrivalMs() < oldestWorthGenerating) {
			if (live.arrivals === 'steady') {
				// From the slot before the edge less a second (an arrival's millisecond may carry it past), then exactly.
				const intervalMs = 3_600_000 / live.postingsPerHour;
				live.next = Math.max(live.next, Math.ceil((oldestWorthGenerating - live.startMs - 1000) / intervalMs) - 1);
				while (this.nextArrivalMs() < oldestWorthGenerating) live.next++;
			} else {
				// Gaps are drawn in order, so skipping still draws them (cheap next to making the jobs).
				while (this.nextArrivalMs() < oldestWorthGenerating) this.skipArrival();
			}
		}
		const bursts = live.burstPostings;
		while (live.nextBurst < bursts.length && bursts[live.nextBurst].rawMs < oldestWorthGenerating) live.nextBurst++;
		for (;;) {
			const regularMs = this.nextArrivalMs();
			const burst = bursts[live.nextBurst] as (typeof bursts)[number] | undefined;
			if (burst !== undefined && burst.rawMs < regularMs) {
				if (burst.rawMs > now) return;
				this.arrive(burst.name, burst.name, burst.rawMs, true);
				live.nextBurst++;
			} else {
				if (regularMs > now) return;
				this.arrive(`live:${live.next}`, String(live.next), regularMs, false);
				this.skipArrival();
			}
		}
	}

	/** One posting: its job from its own stream, then when it shows, goes and is posted again. */
	private arrive(stream: string, name: string, rawMs: number, burst: boolean): void {
		// Each posting has its own stream, so skipping ahead never changes the ones that follow.
		const random = seededRandom(seedFromText(stream, this.options.seed));
		const createdMs = this.round(rawMs);
		const fate = this.fateOf(name, createdMs, random, burst);
		const entry = this.entryOf(generateJob(random, this.nextSerial++, createdMs));
		this.pending.push({ entry, visibleAt: fate.visibleAt });
		if (fate.removeAt !== undefined) {
			this.removals.push({ uid: entry.job.uid, at: fate.removeAt });
			return;
		}
		const repost = this.repostOf(name, createdMs);
		if (repost) this.reposts.push({ uid: entry.job.uid, ...repost });
	}
}
