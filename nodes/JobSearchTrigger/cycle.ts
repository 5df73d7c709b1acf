import type { IDataObject } from 'n8n-workflow';

import { Reader, compareNewestFirst, type FetchPage, type ReadJob, type ReadLimits } from '../JobSearch/paging/reader';
import { pruneSeen, type TriggerState } from './state';
import { CHECK_EVERY_MS, CHECK_MIN_ROWS, LEARN_MAX_ROWS, LEAF_ROWS, MAX_SEEN_UIDS, POLL_BUDGET_SHARE } from './tunables';

export interface CycleSettings {
	/** How long after its createdAt a job may still show up in the index for the first time. */
	lateWindowMs: number;
	/** First poll only: emit the jobs of this many ms before now. Unset: emit nothing, just learn them. */
	firstPollLookbackMs?: number;
	maxJobsPerPoll: number;
	rowsPerRequest: number;
	budgetMs: number;
	/** Overridable for tests only. */
	checkEveryMs?: number;
	/** Overridable for tests only. */
	maxSeenUids?: number;
}

export interface CycleOutcome {
	/** New jobs, newest first, each once. */
	emit: IDataObject[];
	/** The state to keep, once the jobs are safely handed over. */
	state: TriggerState;
	reader: Reader;
	firstPoll: boolean;
	/** A late-job check ran to its end in this poll. */
	checked: boolean;
	/** New jobs that the index showed after newer ones had been read (found by the check). */
	late: number;
	/** Jobs found gone from the index in this poll. */
	gone: number;
	/** Seen uids the hard cap forgot (0 unless something is badly off). */
	capped: number;
	/** First poll only: the silent read stopped before the end of the Late Window, from here back. */
	learnedFromMs?: number;
}

/** The mutable working copy of one poll: what it knew before plus what it has read so far. */
class Poll {
	readonly seen: Map<string, number>;
	readonly gone: Set<string>;
	readonly fresh: ReadJob[] = [];
	late = 0;
	goneFound = 0;
	private absorbed = new Set<string>();

	constructor(
		readonly reader: Reader,
		previous: TriggerState | undefined,
		private readonly emitting: boolean,
	) {
		this.seen = new Map(previous?.seen);
		this.gone = new Set(previous?.gone);
	}

	/** Takes in what the reader has read since the last call: new uids become seen (and sent). */
	absorb(lateBeforeMs = -Infinity): void {
		for (const [uid, read] of this.reader.jobs) {
			if (this.absorbed.has(uid)) continue;
			this.absorbed.add(uid);
			if (this.seen.has(uid)) {
				this.gone.delete(uid); // shown again: counted again, never sent again
				continue;
			}
			this.seen.set(uid, read.createdMs);
			if (read.createdMs <= lateBeforeMs) this.late++;
			if (this.emitting) this.fresh.push(read);
		}
	}

	/** Seen jobs the index still shows (as far as we know), created in exactly this millisecond. */
	readonly activeAt = (ms: number): number => {
		let count = 0;
		for (const [uid, createdMs] of this.seen) if (createdMs === ms && !this.gone.has(uid)) count++;
		return count;
	};

	activeIn(fromMs: number, toMs: number): { uid: string; createdMs: number }[] {
		const out: { uid: string; createdMs: number }[] = [];
		for (const [uid, createdMs] of this.seen) {
			if (createdMs >= fromMs && createdMs <= toMs && !this.gone.has(uid)) out.push({ uid, createdMs });
		}
		return out;
	}

	newestRead(): number {
		let newest = -Infinity;
		for (const { createdMs } of this.reader.jobs.values()) newest = Math.max(newest, createdMs);
		return newest;
	}

	/**
	 * Makes the window's known jobs agree with `actual`, the count the index gives for it. Equal
	 * counts settle it for one billed row. Otherwise it is halved at the median known createdAt and
	 * the left half counted (one row; the right half's count follows by subtraction) until a part is
	 * small enough to read whole: a late job costs a few rows to find, not the whole window.
	 * Returns false when the budget ran out first (the check is then repeated by a later poll).
	 */
	async settle(fromMs: number, toMs: number, actual: number, lateBeforeMs: number): Promise<boolean> {
		const known = this.activeIn(fromMs, toMs);
		if (actual === known.length) return true;
		if (actual === 0) {
			for (const { uid } of known) this.markGone(uid);
			return true;
		}
		const surplus = Math.abs(actual - known.length);
		if (actual <= LEAF_ROWS || fromMs >= toMs || surplus * 4 >= known.length) {
			return await this.readWhole(fromMs, toMs, actual, known, lateBeforeMs);
		}
		const times = known.map((k) => k.createdMs).sort((a, b) => a - b);
		const midMs = Math.max(fromMs, Math.min(toMs - 1, times[(times.length - 1) >> 1]));
		const left = await this.reader.count({ fromMs, toMs: midMs });
		this.absorb(lateBeforeMs);
		if (!left) return false;
		const leftDone = await this.settle(fromMs, midMs, left.total, lateBeforeMs);
		const rightDone = await this.settle(midMs + 1, toMs, actual - left.total, lateBeforeMs);
		return leftDone && rightDone;
	}

	/** Reads the part whole, in one request: the count says how many rows it has. */
	private async readWhole(fromMs: number, toMs: number, actual: number, known: { uid: string }[], lateBeforeMs: number): Promise<boolean> {
		const shown = new Set<string>();
		const read = await this.reader.readRange({ fromMs, toMs }, () => 0, shown, actual);
		this.absorb(lateBeforeMs);
		if (!read.complete) return false;
		for (const { uid } of known) if (!shown.has(uid)) this.markGone(uid);
		return true;
	}

	private markGone(uid: string): void {
		if (this.gone.has(uid)) return;
		this.gone.add(uid);
		this.goneFound++;
	}
}

function limitsOf(settings: CycleSettings, startMs: number, now: () => number, maxRows: number): ReadLimits {
	return { rowsPerRequest: settings.rowsPerRequest, maxRows, deadlineMs: startMs + settings.budgetMs * POLL_BUDGET_SHARE, now };
}

function finish(
	poll: Poll,
	settings: CycleSettings,
	state: Omit<TriggerState, 'seen' | 'gone'>,
	extra: { firstPoll: boolean; checked: boolean; learnedFromMs?: number },
): CycleOutcome {
	let { checkFromMs, gap } = state;
	const floorMs = Math.min(checkFromMs, gap?.fromMs ?? Infinity);
	const pruned = pruneSeen(poll.seen, poll.gone, floorMs, settings.maxSeenUids ?? MAX_SEEN_UIDS);
	checkFromMs = Math.max(checkFromMs, pruned.sinceMs);
	if (gap && gap.fromMs < pruned.sinceMs) {
		gap = gap.toMs >= pruned.sinceMs ? { fromMs: pruned.sinceMs, toMs: gap.toMs } : undefined;
	}
	return {
		emit: poll.fresh.sort(compareNewestFirst).map((read) => read.job),
		state: { headMs: state.headMs, checkFromMs, lastCheckMs: state.lastCheckMs, seen: pruned.seen, gone: pruned.gone, ...(gap ? { gap } : {}) },
		reader: poll.reader,
		late: poll.late,
		gone: poll.goneFound,
		capped: pruned.capped,
		...extra,
	};
}

/**
 * Activation: read the Late Window (and the Emit on First Poll hours) once, so that every job the
 * index shows from now on can be told apart from the ones it already showed. A silent first poll
 * must finish that read whatever Max Jobs per Poll says: a job left unread there could not be told
 * from a late one later. It sends nothing and stops only at the hard cap or the time budget.
 */
async function firstCycle(settings: CycleSettings, fetchPage: FetchPage, now: () => number, startMs: number): Promise<CycleOutcome> {
	const emitting = settings.firstPollLookbackMs !== undefined;
	const windowFromMs = startMs - Math.max(settings.lateWindowMs, settings.firstPollLookbackMs ?? 0);
	const reader = new Reader(fetchPage, limitsOf(settings, startMs, now, emitting ? settings.maxJobsPerPoll : LEARN_MAX_ROWS));
	const poll = new Poll(reader, undefined, emitting);
	const read = await reader.readRange({ fromMs: windowFromMs });
	poll.absorb();
	const headMs = Math.max(windowFromMs - 1, poll.newestRead());
	const unreadToMs = read.complete ? undefined : read.unread?.toMs;
	if (unreadToMs === undefined) {
		return finish(poll, settings, { headMs, checkFromMs: windowFromMs, lastCheckMs: startMs }, { firstPoll: true, checked: true });
	}
	if (emitting) {
		const gap = { fromMs: windowFromMs, toMs: unreadToMs };
		return finish(poll, settings, { headMs, checkFromMs: windowFromMs, lastCheckMs: startMs, gap }, { firstPoll: true, checked: true });
	}
	return finish(
		poll,
		settings,
		{ headMs, checkFromMs: unreadToMs + 1, lastCheckMs: startMs },
		{ firstPoll: true, checked: true, learnedFromMs: unreadToMs + 1 },
	);
}

/**
 * One poll, from the state before it to the state after it (DESIGN.md beside this file explains
 * the reads and the invariant). In order: an unfinished older stretch (gap) first, so a poll never
 * leaves two holes; then, when due, the late-job check's count, which also returns the newest
 * job; then the head, everything created after the newest job read so far; then, if the count
 * and the known jobs disagree, the search for the late or gone ones. Nothing here touches n8n.
 */
export async function runCycle(
	previous: TriggerState | undefined,
	settings: CycleSettings,
	fetchPage: FetchPage,
	now: () => number,
): Promise<CycleOutcome> {
	const startMs = now();
	if (previous === undefined) return await firstCycle(settings, fetchPage, now, startMs);

	const reader = new Reader(fetchPage, limitsOf(settings, startMs, now, settings.maxJobsPerPoll));
	const poll = new Poll(reader, previous, true);
	let { headMs, checkFromMs, lastCheckMs, gap } = previous;
	// A due check gets its rows before anything else can spend them: under a small Max Jobs per
	// Poll a gap or a busy head would otherwise starve it poll after poll, and a check window that
	// never moves on is where a removal can hide a late job from the count (soak seed 140675691).
	const checkDueNow = startMs - lastCheckMs >= (settings.checkEveryMs ?? CHECK_EVERY_MS);
	if (checkDueNow) reader.allowAtLeast(CHECK_MIN_ROWS);

	if (gap) {
		const read = await reader.readRange(gap, poll.activeAt);
		poll.absorb();
		if (read.complete) gap = undefined;
		else if (read.unread?.toMs !== undefined) gap = { fromMs: gap.fromMs, toMs: read.unread.toMs };
		if (gap) return finish(poll, settings, { headMs, checkFromMs, lastCheckMs, gap }, { firstPoll: false, checked: false });
	}

	const checkDue = checkDueNow && !reader.spent();
	const headBeforeMs = headMs;
	const count = checkDue ? await reader.count({ fromMs: checkFromMs }) : undefined;
	poll.absorb(headBeforeMs);

	// With a count in hand the head ends at the newest job's millisecond, inclusive: the count read
	// that job (the Reader knows it and asks for a row beyond it), but jobs sharing its millisecond
	// with a lower uid come after it and are still unread.
	const newestMs = count?.newest?.createdMs;
	const headSkipped = count !== undefined && (newestMs === undefined || newestMs <= headMs);
	let headDone = headSkipped;
	if (!headSkipped) {
		const read = await reader.readRange({ fromMs: headMs + 1, toMs: newestMs }, poll.activeAt);
		poll.absorb();
		if (read.complete) headDone = true;
		else if (read.unread?.toMs !== undefined) {
			gap = { fromMs: headMs + 1, toMs: read.unread.toMs };
			headDone = true;
		}
	}
	if (headDone) headMs = Math.max(headMs, poll.newestRead());

	let checked = false;
	if (count && headDone && !gap) {
		reader.allowAtLeast(CHECK_MIN_ROWS);
		checked = await poll.settle(checkFromMs, Math.max(headMs, checkFromMs), count.total, headBeforeMs);
		if (checked) {
			checkFromMs = Math.max(checkFromMs, startMs - settings.lateWindowMs);
			lastCheckMs = startMs;
		}
	}
	return finish(poll, settings, { headMs, checkFromMs, lastCheckMs, gap }, { firstPoll: false, checked });
}
