import type { Reader, ReadJob } from '../paging/reader';
import type { Range, Watch } from './state';

/** Known createdAt values that must all be whole seconds before the index is taken to round them: by chance, 1 in 1000^20. */
const COARSE_SAMPLES = 20;
const MINUTE_MS = 60_000;

/**
 * What one poll knows of the index: the jobs read before it (`seen`, `gone`) plus what its reader
 * has read so far. New uids become seen, and are sent, as they are absorbed.
 */
export class Known {
	readonly seen: Map<string, number>;
	readonly gone: Set<string>;
	/** Jobs never seen before, to send. */
	readonly fresh: ReadJob[] = [];
	/** Of the fresh jobs, those created before something newer had been read: shown late by the index. */
	late = 0;
	/** Known jobs read at a newer createdAt than before: the same job posted again. */
	reposts = 0;
	goneFound = 0;
	/** Two jobs read in one millisecond in this poll: the index makes ties. */
	tiesFound = false;
	/** The newest millisecond in which this poll read a second job (-Infinity: none). */
	tiesAtMs = -Infinity;
	private readonly absorbed = new Set<string>();
	/** How many known jobs stand at each millisecond (gone ones included): a new one beside them is a tie. */
	private readonly atMs = new Map<number, number>();

	constructor(
		readonly reader: Reader,
		previous: Watch | undefined,
		private readonly emitting: boolean,
		/** Whether another search of the trigger knows a uid already: then it is learned here, not sent again. */
		private readonly knownElsewhere: (uid: string) => boolean = () => false,
	) {
		this.seen = new Map(previous?.seen);
		this.gone = new Set(previous?.gone);
		for (const ms of this.seen.values()) this.atMs.set(ms, (this.atMs.get(ms) ?? 0) + 1);
	}

	private place(from: number | undefined, to: number): void {
		if (from !== undefined) this.atMs.set(from, (this.atMs.get(from) ?? 1) - 1);
		this.atMs.set(to, (this.atMs.get(to) ?? 0) + 1);
	}

	/**
	 * Takes in what the reader read since the last call; returns how many jobs were new. New jobs
	 * created before `learnBeforeMs` (the activation read) become known without being sent.
	 */
	absorb(lateBeforeMs = -Infinity, learnBeforeMs = -Infinity): number {
		let fresh = 0;
		for (const [uid, read] of this.reader.jobs) {
			if (this.absorbed.has(uid)) continue;
			this.absorbed.add(uid);
			const before = this.seen.get(uid);
			if (before !== undefined) {
				this.gone.delete(uid); // shown again: counted again, never sent again
				if (read.createdMs > before) {
					// Posted again under the same uid: it now stands at its new createdAt, and is
					// remembered from there, so it is not sent again while the index shows it.
					this.seen.set(uid, read.createdMs);
					this.place(before, read.createdMs);
					this.reposts++;
				}
				continue;
			}
			if ((this.atMs.get(read.createdMs) ?? 0) > 0) {
				this.tiesFound = true;
				this.tiesAtMs = Math.max(this.tiesAtMs, read.createdMs);
			}
			this.seen.set(uid, read.createdMs);
			this.place(undefined, read.createdMs);
			fresh++;
			if (this.knownElsewhere(uid)) continue;
			if (read.createdMs <= lateBeforeMs) this.late++;
			if (this.emitting && read.createdMs >= learnBeforeMs) this.fresh.push(read);
		}
		return fresh;
	}

	/** Known jobs the index still shows (as far as this poll knows) created in exactly this millisecond. */
	readonly activeAt = (ms: number): number => {
		let count = 0;
		for (const [uid, createdMs] of this.seen) if (createdMs === ms && !this.gone.has(uid)) count++;
		return count;
	};

	activeIn(range: Range): { uid: string; createdMs: number }[] {
		const out: { uid: string; createdMs: number }[] = [];
		for (const [uid, createdMs] of this.seen) {
			if (createdMs >= range.fromMs && createdMs <= range.toMs && !this.gone.has(uid)) out.push({ uid, createdMs });
		}
		return out;
	}

	/**
	 * Whether the index gives createdAt in whole seconds (every one of at least COARSE_SAMPLES known
	 * jobs): then jobs share a second often, and a late one may share a known job's.
	 */
	coarseTimes(): boolean {
		if (this.seen.size < COARSE_SAMPLES) return false;
		for (const ms of this.seen.values()) if (ms % 1000 !== 0) return false;
		return true;
	}

	/**
	 * Whether the index gives createdAt in whole minutes (every known job, one at least): then a job
	 * shown late shares a known job's minute often, at any volume, and no tie need be seen first.
	 * One job of a finer index is a whole minute by chance once in 60,000; it then costs that job's
	 * row again, until the next one shows otherwise.
	 */
	wholeMinutes(): boolean {
		if (this.seen.size === 0) return false;
		for (const ms of this.seen.values()) if (ms % MINUTE_MS !== 0) return false;
		return true;
	}

	/** Whether two known jobs share a millisecond in this range. */
	hasTies(range: Range): boolean {
		const times = new Set<number>();
		for (const ms of this.seen.values()) {
			if (ms < range.fromMs || ms > range.toMs) continue;
			if (times.has(ms)) return true;
			times.add(ms);
		}
		return false;
	}

	/** The newest createdAt the reader has read (-Infinity when none). */
	newestRead(): number {
		let newest = -Infinity;
		for (const { createdMs } of this.reader.jobs.values()) newest = Math.max(newest, createdMs);
		return newest;
	}

	/**
	 * The stretches of `range` between the milliseconds of known jobs (those milliseconds left
	 * out), oldest first. Asking one costs nothing when nothing new is in it: a search that returns
	 * no row is free, and every row it returns is a job not read before (or one posted again).
	 */
	openStretches(range: Range): Range[] {
		const points = [...new Set([...this.seen.values()].filter((ms) => ms >= range.fromMs && ms <= range.toMs))].sort((a, b) => a - b);
		const out: Range[] = [];
		let cursor = range.fromMs;
		for (const ms of points) {
			if (ms > cursor) out.push({ fromMs: cursor, toMs: ms - 1 });
			cursor = ms + 1;
		}
		if (cursor <= range.toMs) out.push({ fromMs: cursor, toMs: range.toMs });
		return this.unread().reduce((stretches, hole) => stretches.flatMap((s) => outside(s, hole)), out);
	}

	/** Parts left unread on purpose (see PendingRead.deferred): no stretch reaches into them. */
	unread: () => Range[] = () => [];

	markGone(uid: string): void {
		if (this.gone.has(uid)) return;
		this.gone.add(uid);
		this.goneFound++;
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
