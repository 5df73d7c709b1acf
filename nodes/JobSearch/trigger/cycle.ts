import type { IDataObject } from 'n8n-workflow';

import { Reader, compareNewestFirst, type FetchPage, type ReadJob, type ReadLimits, type TimeRange } from '../paging/reader';
import { freshPace, pruneSeen, type SweepPace, type SweepPass, type TriggerState } from './state';
import {
	CHECK_MIN_ROWS,
	LEARN_MAX_ROWS,
	LEAF_ROWS,
	MAX_SWEEP_REQUESTS,
	MAX_SEEN_UIDS,
	POLL_BUDGET_SHARE,
	COUNT_AT_LEAST_EVERY_MS,
	QUICK_CHECK_AT_EXPECTED_LATE,
	STRETCHES_BEFORE_HALVING,
	SWEEP_EVERY_MS,
} from './tunables';

export interface CycleSettings {
	/** How long after its createdAt a job may still show up in the index for the first time. */
	lateWindowMs: number;
	/** First poll only: emit the jobs of this many ms before now. Unset: emit nothing, just learn them. */
	firstPollLookbackMs?: number;
	maxJobsPerPoll: number;
	rowsPerRequest: number;
	budgetMs: number;
	/** Overridable for tests only: how often every unsettled stretch is asked again. */
	sweepEveryMs?: number;
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
	/** A sweep ran to its end in this poll and what it covered is now settled. */
	swept: boolean;
	/** New jobs the index showed after newer ones had been read (found by the sweep). */
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
	absorb(lateBeforeMs = -Infinity): number {
		let fresh = 0;
		for (const [uid, read] of this.reader.jobs) {
			if (this.absorbed.has(uid)) continue;
			this.absorbed.add(uid);
			if (this.seen.has(uid)) {
				this.gone.delete(uid); // shown again: counted again, never sent again
				continue;
			}
			this.seen.set(uid, read.createdMs);
			fresh++;
			if (read.createdMs <= lateBeforeMs) this.late++;
			if (this.emitting) this.fresh.push(read);
		}
		return fresh;
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

	/** Whether two jobs read share a millisecond in this stretch: this index makes ties. */
	hasTies(fromMs: number, toMs: number): boolean {
		const times = new Set<number>();
		for (const ms of this.seen.values()) {
			if (ms < fromMs || ms > toMs) continue;
			if (times.has(ms)) return true;
			times.add(ms);
		}
		return false;
	}

	newestRead(): number {
		let newest = -Infinity;
		for (const { createdMs } of this.reader.jobs.values()) newest = Math.max(newest, createdMs);
		return newest;
	}

	/**
	 * The stretches of [fromMs, toMs] between the milliseconds of jobs already read (those
	 * milliseconds left out), oldest first. Asking one costs nothing when nothing new is in it: a
	 * search that returns no row is free, and every row it does return is a job not read before.
	 */
	openStretches(fromMs: number, toMs: number): Required<TimeRange>[] {
		const points = [...new Set([...this.seen.values()].filter((ms) => ms >= fromMs && ms <= toMs))].sort((a, b) => a - b);
		const out: Required<TimeRange>[] = [];
		let cursor = fromMs;
		for (const ms of points) {
			if (ms > cursor) out.push({ fromMs: cursor, toMs: ms - 1 });
			cursor = ms + 1;
		}
		if (cursor <= toMs) out.push({ fromMs: cursor, toMs });
		return out;
	}

	/**
	 * Makes the window's known jobs agree with `actual`, the count the index gives for it. Equal
	 * counts settle it. Otherwise it is halved at the median known createdAt and the left half
	 * counted (one row; the right half's count follows by subtraction) until a part is small enough
	 * to read whole. Only the settling stretch is counted, where open stretches have already been
	 * swept: what a count still finds there is a job sharing the millisecond of one already read.
	 * Returns false when the budget ran out first (the stretch then settles on a later poll).
	 */
	async settle(fromMs: number, toMs: number, actual: number): Promise<boolean> {
		const known = this.activeIn(fromMs, toMs);
		if (actual === known.length) return true;
		if (actual === 0) {
			for (const { uid } of known) this.markGone(uid);
			return true;
		}
		const surplus = Math.abs(actual - known.length);
		if (actual <= LEAF_ROWS || fromMs >= toMs || surplus * 4 >= known.length) {
			return await this.readWhole(fromMs, toMs, actual, known);
		}
		const times = known.map((k) => k.createdMs).sort((a, b) => a - b);
		const midMs = Math.max(fromMs, Math.min(toMs - 1, times[(times.length - 1) >> 1]));
		const left = await this.reader.count({ fromMs, toMs: midMs });
		this.absorb(Infinity);
		if (!left) return false;
		const leftDone = await this.settle(fromMs, midMs, left.total);
		const rightDone = await this.settle(midMs + 1, toMs, actual - left.total);
		return leftDone && rightDone;
	}

	/** Reads the part whole, in one request: the count says how many rows it has. */
	private async readWhole(fromMs: number, toMs: number, actual: number, known: { uid: string }[]): Promise<boolean> {
		const shown = new Set<string>();
		const read = await this.reader.readRange({ fromMs, toMs }, () => 0, shown, actual);
		this.absorb(Infinity);
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

type Kept = Omit<TriggerState, 'seen' | 'gone'>;

function finish(poll: Poll, settings: CycleSettings, state: Kept, extra: { firstPoll: boolean; swept: boolean; learnedFromMs?: number }): CycleOutcome {
	let { settledMs, sweptMs, gap, pass } = state;
	const floorMs = Math.min(settledMs, gap?.fromMs ?? Infinity);
	const pruned = pruneSeen(poll.seen, poll.gone, floorMs, settings.maxSeenUids ?? MAX_SEEN_UIDS);
	// Only the hard cap moves the floor up: what it forgot must never be asked again.
	settledMs = Math.max(settledMs, pruned.sinceMs);
	sweptMs = Math.max(sweptMs, settledMs);
	if (gap && gap.fromMs < pruned.sinceMs) {
		gap = gap.toMs >= pruned.sinceMs ? { fromMs: pruned.sinceMs, toMs: gap.toMs } : undefined;
	}
	// Nothing below the floor may be asked again: what the cap forgot there would be sent twice.
	if (pass) pass = { ...pass, fromMs: Math.max(pass.fromMs, settledMs), cursorMs: Math.max(pass.cursorMs, settledMs) };
	return {
		emit: poll.fresh.sort(compareNewestFirst).map((read) => read.job),
		state: {
			headMs: state.headMs,
			sweptMs,
			settledMs,
			lastPollMs: state.lastPollMs,
			pace: state.pace,
			seen: pruned.seen,
			gone: pruned.gone,
			...(pass ? { pass } : {}),
			...(gap ? { gap } : {}),
		},
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
	const base = { headMs, sweptMs: windowFromMs, settledMs: windowFromMs, lastPollMs: startMs, pace: freshPace(startMs) };
	if (unreadToMs === undefined) return finish(poll, settings, base, { firstPoll: true, swept: true });
	if (emitting) return finish(poll, settings, { ...base, gap: { fromMs: windowFromMs, toMs: unreadToMs } }, { firstPoll: true, swept: true });
	return finish(poll, settings, { ...base, sweptMs: unreadToMs + 1, settledMs: unreadToMs + 1 }, { firstPoll: true, swept: true, learnedFromMs: unreadToMs + 1 });
}

/**
 * How many open stretches this poll sweeps: all that are left when the next poll (as far apart as
 * this one from the last) would come after the pass's deadline; otherwise a share in proportion,
 * so a pass spreads evenly over the polls of its period instead of landing on one.
 */
function sweepQuota(pass: SweepPass, left: number, startMs: number, sinceLastPollMs: number, sweepEveryMs: number): number {
	const deadlineMs = pass.startedMs + sweepEveryMs;
	if (startMs + sinceLastPollMs >= deadlineMs) return left;
	return Math.ceil((left * Math.max(1, sinceLastPollMs)) / (deadlineMs - startMs));
}

/** Neighbouring stretches joined `size` at a time, from the first's start to the last's end. */
function inGroups(stretches: Required<TimeRange>[], size: number): Required<TimeRange>[] {
	const out: Required<TimeRange>[] = [];
	for (let i = 0; i < stretches.length; i += size) {
		out.push({ fromMs: stretches[i].fromMs, toMs: stretches[Math.min(stretches.length, i + size) - 1].toMs });
	}
	return out;
}

const HOUR_MS = 3_600_000;

/**
 * Counts a stretch of time once (one row) and, if the index holds more there than was read, asks
 * its newest open stretches until the difference is found (free where nothing new is: late jobs
 * are mostly recent). A difference left after a few of them is settled by halving with counts: a
 * job sharing the millisecond of one already read (no open stretch holds it), or a job gone from
 * the index, which is marked so that later counts are not thrown off by it. Returns false when
 * the budget ran out first.
 */
async function findMissing(poll: Poll, range: Required<TimeRange>): Promise<boolean> {
	if (range.toMs < range.fromMs) return true;
	let count = await poll.reader.count(range);
	poll.absorb(Infinity);
	if (!count) return false;
	let missing = count.total - poll.activeIn(range.fromMs, range.toMs).length;
	let asked = 0;
	for (const stretch of poll.openStretches(range.fromMs, range.toMs).reverse()) {
		if (missing <= 0 || asked >= STRETCHES_BEFORE_HALVING) break;
		if (poll.reader.spent()) return false;
		const read = await poll.reader.readRange(stretch, poll.activeAt);
		missing -= poll.absorb(Infinity);
		asked++;
		if (!read.complete) return false;
	}
	if (missing === 0) return true;
	// Fewer than known, and no two jobs read share a millisecond here: jobs were removed, and no
	// tie can be hiding behind them yet. Finding which would cost rows for nothing.
	if (missing < 0 && !poll.hasTies(range.fromMs, range.toMs)) return true;
	poll.reader.allowAtLeast(CHECK_MIN_ROWS);
	// Jobs may have shown up in stretches asked before the count: count again before halving.
	if (asked > 0) {
		count = await poll.reader.count(range);
		poll.absorb(Infinity);
		if (!count) return false;
	}
	return await poll.settle(range.fromMs, range.toMs, count.total);
}

/**
 * When jobs show up late often (an index that shows them out of order), waiting for the sweep
 * would send most of them a poll or more after they could have gone: as soon as the sweeps' pace
 * says a late job is likely waiting, the recent stretch is checked (one row). Where late jobs are
 * rare this hardly ever runs, so it costs nothing there.
 */
async function quickCheck(poll: Poll, pace: SweepPace, startMs: number, range: Required<TimeRange>): Promise<SweepPace> {
	if (!lateLikely(pace, startMs) || range.toMs < range.fromMs || poll.reader.spent()) return pace;
	await findMissing(poll, range);
	return { ...pace, lastCheckMs: startMs };
}

function lateLikely(pace: SweepPace, startMs: number): boolean {
	return (pace.latePerHour * (startMs - pace.lastCheckMs)) / HOUR_MS >= QUICK_CHECK_AT_EXPECTED_LATE;
}

/**
 * Whether a sweep ends with a count of what it swept for good and is not settled yet (one row):
 * when two jobs read there share a millisecond (this index makes ties, which no open stretch
 * holds), and once that stretch spans an hour in any case, so even a rare tie is found within
 * about two hours and the uids kept stay few.
 */
function countDue(poll: Poll, range: Required<TimeRange>): boolean {
	return range.toMs - range.fromMs >= COUNT_AT_LEAST_EVERY_MS || poll.hasTies(range.fromMs, range.toMs);
}

/** How often late jobs turned up since the last pass ended, blended with what was known before. */
function paceAfterPass(pace: SweepPace, lateSince: number, nowMs: number): SweepPace {
	const hours = Math.max(nowMs - pace.sinceMs, 60_000) / HOUR_MS;
	return { ...pace, latePerHour: (pace.latePerHour + lateSince / hours) / 2, late: 0, sinceMs: nowMs };
}

/**
 * One poll, from the state before it to the state after it (DESIGN.md beside this file explains
 * the reads and the invariant). In order: an unfinished older stretch of the head (gap) first, so
 * a poll never leaves two holes; then the head, everything created after the newest job read so
 * far; then its share of the sweep, which asks each stretch between jobs already read whether a
 * job has appeared there since (free when none has); and when a sweep ends, the stretch that can
 * no longer change is counted once and settled. Nothing here touches n8n.
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
	let { headMs, sweptMs, settledMs, gap, pass, pace } = previous;
	// Late jobs found in this poll not yet added to `pace`: added once, whichever way the poll ends.
	let lateCounted = 0;
	const kept = (): Kept => ({ headMs, sweptMs, settledMs, lastPollMs: startMs, pass, gap, pace: { ...pace, late: pace.late + poll.late - lateCounted } });
	const stop = () => finish(poll, settings, kept(), { firstPoll: false, swept: false });

	if (gap) {
		const read = await reader.readRange(gap, poll.activeAt);
		poll.absorb();
		if (read.complete) gap = undefined;
		else if (read.unread?.toMs !== undefined) gap = { fromMs: gap.fromMs, toMs: read.unread.toMs };
		if (gap) return stop();
	}

	const headBeforeMs = headMs;
	const head = await reader.readRange({ fromMs: headMs + 1 }, poll.activeAt);
	poll.absorb();
	if (!head.complete && head.unread?.toMs !== undefined) gap = { fromMs: headMs + 1, toMs: head.unread.toMs };
	if (head.complete || gap) headMs = Math.max(headMs, poll.newestRead());
	if (gap) return stop();

	pace = await quickCheck(poll, pace, startMs, { fromMs: Math.max(settledMs, startMs - settings.lateWindowMs / 2), toMs: headBeforeMs });

	// A pass sweeps up to what the head had read before this poll: the head read of this poll is
	// exact as of now, and each poll moves the pass's end up, so no stretch waits for the next pass.
	pass = pass
		? { ...pass, toMs: Math.max(pass.toMs, headBeforeMs) }
		: { startedMs: startMs, fromMs: sweptMs, cursorMs: sweptMs, toMs: headBeforeMs };
	// A pass past its deadline (a rate limit or a small budget held it back) would leave late jobs
	// waiting: once a period, one count of what it covers finds them for a few rows while it
	// catches up. Once a period only, so the requests left go to the sweep itself.
	// It also gets CHECK_MIN_ROWS beyond Max Jobs per Poll, or a small budget spent on the head
	// would hold it back poll after poll and nothing late would ever be found.
	const sweepEveryMs = settings.sweepEveryMs ?? SWEEP_EVERY_MS;
	if (startMs > pass.startedMs + sweepEveryMs) {
		reader.allowAtLeast(CHECK_MIN_ROWS);
		if (startMs - pace.lastCheckMs >= sweepEveryMs) {
			pace = { ...pace, lastCheckMs: startMs };
			if (!(await findMissing(poll, { fromMs: settledMs, toMs: pass.toMs }))) return stop();
		}
	}
	// Up to MAX_SWEEP_REQUESTS stretches a pass asks each on its own. A busier Late Window (broad
	// filters) is asked in groups of neighbouring stretches, each counted once (a row) and searched
	// only when its count differs: the requests stay within what a rate limit allows.
	const groupSize = Math.max(1, Math.ceil(poll.openStretches(pass.fromMs, pass.toMs).length / MAX_SWEEP_REQUESTS));
	const groups = inGroups(poll.openStretches(pass.cursorMs, pass.toMs), groupSize);
	let quota = sweepQuota(pass, groups.length, startMs, startMs - previous.lastPollMs, sweepEveryMs);
	for (const group of groups) {
		if (quota-- <= 0 || reader.spent()) return stop();
		if (groupSize === 1) {
			const read = await reader.readRange(group, poll.activeAt);
			poll.absorb(headBeforeMs);
			if (!read.complete) return stop();
		} else if (!(await findMissing(poll, group))) return stop();
		pass = { ...pass, cursorMs: group.toMs + 1 };
	}

	// Every open stretch was asked at or after the pass started, so whatever was created a Late
	// Window before that is swept for good. A job sharing the millisecond of one already read is
	// in no open stretch, though: one count of what was swept for good and is not settled yet
	// finds those, when this index makes ties, and at least once it spans an hour.
	// Only that count settles, and only what is settled is forgotten: a tie is always counted
	// after it can no longer change, before it is forgotten. (Counting only what can no longer
	// change, no late job of the unsettled part sets it off.)
	sweptMs = Math.max(sweptMs, pass.startedMs - settings.lateWindowMs);
	const covered = { fromMs: settledMs, toMs: sweptMs - 1 };
	if (covered.toMs >= covered.fromMs && countDue(poll, covered)) {
		reader.allowAtLeast(CHECK_MIN_ROWS);
		if (!(await findMissing(poll, covered))) return stop();
		pace = { ...pace, lastCheckMs: startMs };
		settledMs = sweptMs;
	}
	pace = paceAfterPass(pace, pace.late + poll.late, startMs);
	lateCounted = poll.late;
	pass = undefined;
	return finish(poll, settings, kept(), { firstPoll: false, swept: true });
}
