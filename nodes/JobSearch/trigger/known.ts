import type { RangeRead, Reader, ReadJob } from '../paging/reader';
import { EXACT_TOTALS_BELOW } from '../transport/envelope';
import type { Range, Watch } from './state';
import { MEMORY_MS } from './tunables';

/** One search's known uids: a uid not seen before is sent, once; a seen one never again, whatever createdAt the index gives it later. */
export class Known {
	/** New jobs to send. */
	readonly fresh: ReadJob[] = [];
	late = 0;
	reposts = 0;
	/** This poll read a new job in the millisecond of a known one. */
	tiesFound = false;
	/** The distinct createdAt of known jobs, ascending: the open stretches lie between them. */
	private points: number[];

	constructor(
		private readonly watch: Watch,
		private readonly reader: Reader,
		/** Whether another search of the trigger knows a uid already: then it is learned here, not sent again. */
		private readonly knownElsewhere: (uid: string) => boolean,
	) {
		this.points = [...new Set(watch.seen.values())].sort((a, b) => a - b);
	}

	/** Takes in a read: new jobs at or before `lateBeforeMs` were shown late; before `learnBeforeMs` (activation's history), learned, not sent. */
	absorb(read: RangeRead, lateBeforeMs: number, learnBeforeMs = -Infinity): void {
		const { seen, gone } = this.watch;
		// A row outside the range (a host that rounds the bounds or writes createdAt coarser) still brings a new uid, if no
		// older than every known job: the uid memory may have forgotten an older one.
		const memoryFromMs = this.points[0] ?? Infinity;
		for (const [uid, job] of read.outside) if (!seen.has(uid) && job.createdMs >= memoryFromMs) this.takeNew(uid, job, lateBeforeMs, learnBeforeMs);
		for (const uid of read.shown) {
			const job = this.reader.jobs.get(uid)!;
			const before = seen.get(uid);
			if (before === undefined) {
				this.takeNew(uid, job, lateBeforeMs, learnBeforeMs);
				continue;
			}
			gone.delete(uid);
			if (job.createdMs > before) {
				seen.set(uid, job.createdMs);
				this.addPoint(job.createdMs);
				this.reposts++;
			}
		}
	}

	private takeNew(uid: string, job: ReadJob, lateBeforeMs: number, learnBeforeMs: number): void {
		if (this.addPoint(job.createdMs)) this.tiesFound = true;
		this.watch.seen.set(uid, job.createdMs);
		if (this.knownElsewhere(uid)) return;
		if (job.createdMs < learnBeforeMs) {
			this.watch.learned.add(uid);
			return;
		}
		if (job.createdMs <= lateBeforeMs) this.late++;
		this.fresh.push(job);
	}

	/** Another search sent this job: where it waits unread in a part of this one, it is learned as gone (never sent again, whatever the sender forgets). */
	learnSentElsewhere(uid: string, createdMs: number): void {
		const { seen, gone, pending } = this.watch;
		if (seen.has(uid) || !pending.some((p) => createdMs >= p.fromMs && createdMs <= p.toMs)) return;
		seen.set(uid, createdMs);
		gone.add(uid);
	}

	/** After a whole read of `range`: the known uids it did not return are gone (not counted, never sent again). */
	markGone(range: Range, read: RangeRead): void {
		for (const uid of this.uidsIn(range, read.shown)) this.watch.gone.add(uid);
	}

	/** Known jobs created from `fromMs` up to `toMs`: they come back first where a page ends there. */
	readonly at = (fromMs: number, toMs: number): number => this.uidsIn({ fromMs, toMs }).length;

	/** Known jobs the index still shows (as far as the trigger knows) in `range`. */
	activeIn = (range: Range): number => this.uidsIn(range, this.watch.gone).length;

	/** The known uids created in `range`, but those in `except`. */
	private uidsIn(range: Range, except = new Set<string>()): string[] {
		return [...this.watch.seen].filter(([uid, ms]) => ms >= range.fromMs && ms <= range.toMs && !except.has(uid)).map(([uid]) => uid);
	}

	/** An end up to `toMs` where `(fromMs, end]` holds fewer known jobs than totals are rounded from (all of one millisecond, if more share it). */
	exactCountEnd(fromMs: number, toMs: number): number {
		const most = EXACT_TOTALS_BELOW - 1;
		const times = [...this.watch.seen.values()].filter((ms) => ms > fromMs && ms <= toMs).sort((a, b) => a - b);
		return times.length <= most ? toMs : times[most] > times[0] ? times[most] - 1 : times[0];
	}

	/** The stretches of `range` between known jobs' milliseconds, oldest first, outside `holes`: asking one is free when nothing is new. */
	openStretches(range: Range, holes: Range[]): Range[] {
		const out: Range[] = [];
		let cursor = range.fromMs;
		for (const ms of this.points) {
			if (ms > range.toMs) break;
			if (ms > cursor) out.push({ fromMs: cursor, toMs: ms - 1 });
			cursor = Math.max(cursor, ms + 1);
		}
		if (cursor <= range.toMs) out.push({ fromMs: cursor, toMs: range.toMs });
		return holes.reduce((stretches, hole) => stretches.flatMap((s) => outside(s, hole)), out);
	}

	/** Whether every known createdAt is a whole `unitMs` (a second: a job shown late shares a known job's millisecond a thousand times as often). */
	wholeOf(unitMs: number): boolean {
		return this.points.length > 0 && this.points.every((ms) => ms % unitMs === 0);
	}

	/**
	 * How many of the known jobs after `fromMs` would share a millisecond by chance, from how many
	 * stand in each second: where jobs come many a second (a bulk import), a job shown late lands in
	 * a known job's millisecond often enough that no tie need be seen first.
	 */
	chanceTies(fromMs: number): number {
		const perSecond = new Map<number, number>();
		for (const ms of this.points) if (ms > fromMs) perSecond.set(Math.floor(ms / 1000), (perSecond.get(Math.floor(ms / 1000)) ?? 0) + 1);
		let pairs = 0;
		for (const n of perSecond.values()) pairs += (n * (n - 1)) / 2;
		return pairs / 1000;
	}

	/** Adds a known createdAt; true when a known job stood there already (a tie). */
	private addPoint(ms: number): boolean {
		// Most new jobs are the newest: no scan for them.
		const i = this.points.length === 0 || ms > this.points[this.points.length - 1] ? this.points.length : this.points.findIndex((p) => p >= ms);
		if (this.points[i] === ms) return true;
		this.points.splice(i, 0, ms);
		return false;
	}
}

/** What of `stretch` lies outside `hole`. */
function outside(stretch: Range, hole: Range): Range[] {
	if (hole.toMs < stretch.fromMs || hole.fromMs > stretch.toMs) return [stretch];
	const parts: Range[] = [];
	if (stretch.fromMs < hole.fromMs) parts.push({ fromMs: stretch.fromMs, toMs: hole.fromMs - 1 });
	if (stretch.toMs > hole.toMs) parts.push({ fromMs: hole.toMs + 1, toMs: stretch.toMs });
	return parts;
}

/** Up to here everything is read to its end: no look or part asks below it again. */
export const settledOf = (watch: Watch): number => Math.min(watch.floorMs, ...watch.pending.map((p) => p.fromMs - 1));

/** Forgets uids a day below the floor and pending parts and below `keepFromMs`, and the oldest past `cap` (every look rises above them); returns those above the settled part. */
export function forget(watch: Watch, cap: number, keepFromMs: number): number {
	// Once the cap forgets a uid above the settled part, the looks and parts rise past unread jobs.
	const settledMs = settledOf(watch);
	for (const [uid, ms] of watch.seen) if (ms < Math.min(settledMs - MEMORY_MS, keepFromMs)) watch.seen.delete(uid);
	let capped = 0;
	if (watch.seen.size > cap) {
		const cutMs = [...watch.seen.values()].sort((a, b) => a - b)[watch.seen.size - cap - 1];
		for (const [uid, ms] of watch.seen) {
			if (ms > cutMs) continue;
			watch.seen.delete(uid);
			if (ms > settledMs) capped++;
		}
		const floorMs = Math.max(watch.floorMs, cutMs);
		Object.assign(watch, { floorMs, finalMs: Math.max(watch.finalMs, floorMs), headMs: Math.max(watch.headMs, floorMs) });
		watch.youngMs = watch.youngMs.map((ms) => Math.max(ms, floorMs));
		watch.pending = watch.pending.filter((p) => p.toMs > cutMs).map((p) => (p.fromMs > cutMs ? p : { ...p, fromMs: cutMs + 1, owed: undefined }));
	}
	for (const set of [watch.gone, watch.learned]) for (const uid of set) if (!watch.seen.has(uid)) set.delete(uid);
	return capped;
}
