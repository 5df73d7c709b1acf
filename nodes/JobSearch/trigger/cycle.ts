import type { IDataObject } from 'n8n-workflow';

import { Reader, compareNewestFirst, type CountRead, type FetchPage, type Page, type PageRequest } from '../paging/reader';
import { Known } from './known';
import { RequestBudget, freshLedger, windowCap } from './requests';
import type { Pass, PendingRead, Range, TriggerState, Watch } from './state';
import {
	CHECK_MIN_ROWS,
	COUNT_AT_LEAST_EVERY_MS,
	COUNT_MAX_KNOWN,
	YOUNG_CHECK_AGE_MS,
	YOUNG_CHECK_STEP_MS,
	TIES_FINAL_EVERY_MS,
	FAULT_PAUSE_MS,
	MAX_FAULT_PAUSE_MS,
	FINAL_LAG_MAX_MS,
	FRESHNESS_MS,
	INDEX_LAG_GUESS_MS,
	LEAF_ROWS,
	LEARN_MAX_ROWS,
	LOCATE_STRETCHES,
	MAX_INDEX_LEAD_MS,
	MAX_SEEN_UIDS,
	MIN_PASS_EVERY_MS,
	OFFSET_MAX_AGE_MS,
	OFFSET_SAMPLES,
	PASS_EVERY_MS,
	POLL_TIME_SHARE,
	RATE_WINDOW_MS,
	REPOST_MEMORY_MS,
	SWEEP_SHARE,
} from './tunables';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export interface CycleSettings {
	/** How long after its createdAt a job may still show up in the index for the first time. */
	lateWindowMs: number;
	/** First poll only: send the jobs of this many ms before now. Unset: send nothing, just learn them. */
	firstPollLookbackMs?: number;
	maxJobsPerPoll: number;
	rowsPerRequest: number;
	/** How long this poll may take. */
	pollTimeMs: number;
	/** The shortest time n8n may leave between two polls (Poll Times). */
	intervalMs: number;
	requestsPerMinute: number;
	/** Overridable for tests only. */
	maxSeenUids?: number;
}

/** What a failed request means for the trigger: wait as asked, ride it out, or report it now. */
export type FailureKind = { kind: 'rate-limited'; retryAfterMs: number } | { kind: 'passing' } | { kind: 'lasting' };

export interface CycleDeps {
	fetchPage: FetchPage;
	now: () => number;
	sleep: (ms: number) => Promise<void>;
	classify: (error: Error) => FailureKind;
}

export interface CycleOutcome {
	/** New jobs, newest first, each once. */
	emit: IDataObject[];
	/** The state to keep, once the jobs are safely handed over. */
	state: TriggerState;
	reader: Reader;
	budget: RequestBudget;
	firstPoll: boolean;
	/** The activation read is not finished yet: its rest follows on the next polls. */
	learning: boolean;
	/** A pass (or the final looks) reached its end in this poll. */
	passDone: boolean;
	/** New jobs the index showed after newer ones had been read. */
	late: number;
	/** Jobs found gone from the index in this poll. */
	gone: number;
	/** Known jobs found at a newer createdAt (posted again): not sent again. */
	reposts: number;
	/** Seen uids the hard cap forgot inside the window (0 unless something is badly off). */
	capped: number;
	/** The failure that ended the poll's reading, and what it means. */
	failure?: { error: Error; kind: FailureKind };
}

/** How often the unsettled window is asked again: a job shown late then waits at most FRESHNESS_MS after the poll that could see it. */
export function passEveryMs(intervalMs: number): number {
	return Math.max(MIN_PASS_EVERY_MS, Math.min(PASS_EVERY_MS, FRESHNESS_MS - intervalMs));
}

/** The index's clock as far as n8n can tell: never ahead of it, whatever the skew between the two. */
function indexNowMs(offsets: Watch['offsets'], nowMs: number): number {
	const recent = offsets.filter((o) => o.atMs > nowMs - OFFSET_MAX_AGE_MS);
	if (recent.length === 0) return nowMs - INDEX_LAG_GUESS_MS;
	return nowMs + Math.min(MAX_INDEX_LEAD_MS, Math.max(...recent.map((o) => o.offsetMs)));
}

/** The requests one poll can make at most: one per turn (see RequestBudget.take) within its time. */
function perPollCap(settings: CycleSettings): number {
	return Math.max(1, Math.floor((settings.pollTimeMs * POLL_TIME_SHARE * windowCap(settings)) / RATE_WINDOW_MS));
}

/** One poll's reading, from the state before it to the state after it. Nothing here touches n8n. */
class PollRun {
	readonly reader: Reader;
	readonly known: Known;
	readonly budget: RequestBudget;
	/** 429s met in this poll, waited out or not. */
	rateLimits = 0;
	private readonly startMs: number;

	constructor(
		readonly previous: TriggerState,
		readonly settings: CycleSettings,
		readonly deps: CycleDeps,
		emitting: boolean,
		maxRows: number,
	) {
		this.startMs = deps.now();
		const deadlineMs = this.startMs + settings.pollTimeMs * POLL_TIME_SHARE;
		this.budget = new RequestBudget(previous.requests, settings, deps, deadlineMs);
		this.reader = new Reader(async (request) => await this.fetch(request), {
			rowsPerRequest: settings.rowsPerRequest,
			maxRows,
			deadlineMs,
			now: deps.now,
			admit: async () => await this.budget.take(),
			throwFirstFailure: false,
		});
		this.known = new Known(this.reader, previous.watch, emitting);
	}

	/**
	 * One request; a 429 is waited out as the service asks when that still ends in the poll's time
	 * (then the request goes again, with a request of the budget), else it ends the reading.
	 */
	private async fetch(request: PageRequest): Promise<Page> {
		for (;;) {
			const answer = await this.deps.fetchPage(request).then(
				(page) => ({ page }),
				(error: Error) => ({ error }),
			);
			if ('page' in answer) return answer.page;
			const meaning = this.deps.classify(answer.error);
			if (meaning.kind === 'rate-limited') {
				this.budget.rateLimited(meaning.retryAfterMs);
				this.rateLimits++;
			}
			if (meaning.kind !== 'rate-limited' || !(await this.budget.take())) throw answer.error;
		}
	}

	get now(): number {
		return this.deps.now();
	}

	/** Every open stretch of `range`, one request each (oldest first unless asked otherwise); false if the poll stopped before the end. */
	async askStretches(
		range: Range,
		lateBeforeMs: number,
		options: { limit?: number; newestFirst?: boolean; onAsked?: (stretch: Range) => void } = {},
	): Promise<boolean> {
		const { limit = Infinity, newestFirst = false, onAsked } = options;
		const stretches = this.known.openStretches(range);
		if (newestFirst) stretches.reverse();
		let asked = 0;
		for (const stretch of stretches) {
			if (asked++ >= limit || this.reader.spent()) return false;
			const read = await this.reader.readRange(stretch, this.known.activeAt);
			this.known.absorb(lateBeforeMs);
			if (!read.complete) return false;
			onAsked?.(stretch);
		}
		return true;
	}

	/**
	 * Counts `range` (one row) in parts of at most COUNT_MAX_KNOWN known jobs, and finds what the
	 * index holds there beyond them: a job shown late, or one posted in the very millisecond of a
	 * known one (no open stretch holds it). `stretchesFirst`: ask its newest open stretches before
	 * halving (they were not just asked). Returns false when the poll stopped before the end.
	 */
	async check(range: Range, stretchesFirst: boolean, ties: boolean): Promise<boolean> {
		for (const part of this.countParts(range)) {
			this.reader.allowAtLeast(CHECK_MIN_ROWS);
			const count = await this.reader.count(part);
			this.known.absorb(Infinity);
			if (!count) return false;
			if (!(await this.resolve(part, count, stretchesFirst, ties))) return false;
		}
		return true;
	}

	/** `range` cut at known jobs into parts of at most COUNT_MAX_KNOWN, so each count is an exact one. */
	private countParts(range: Range): Range[] {
		const times = this.known.activeIn(range).map((k) => k.createdMs).sort((a, b) => a - b);
		const parts: Range[] = [];
		let fromMs = range.fromMs;
		for (let i = COUNT_MAX_KNOWN; i < times.length; i += COUNT_MAX_KNOWN) {
			const cutMs = times[i] - 1;
			if (cutMs < fromMs) continue;
			parts.push({ fromMs, toMs: cutMs });
			fromMs = cutMs + 1;
		}
		parts.push({ fromMs, toMs: range.toMs });
		return parts;
	}

	private async resolve(range: Range, count: CountRead, stretchesFirst: boolean, ties: boolean): Promise<boolean> {
		let missing = count.total - this.known.activeIn(range).length;
		if (count.exact && missing === 0) return true;
		if (count.exact && missing < 0 && !ties && !this.known.hasTies(range)) return true;
		let asked = 0;
		if (stretchesFirst && missing > 0) {
			const limit = Math.max(1, Math.round(LOCATE_STRETCHES * Math.min(1, this.budget.fill() * 2)));
			for (const stretch of this.known.openStretches(range).reverse()) {
				if (missing <= 0 || asked >= limit) break;
				if (this.reader.spent()) return false;
				const read = await this.reader.readRange(stretch, this.known.activeAt);
				missing -= this.known.absorb(Infinity);
				asked++;
				if (!read.complete) return false;
			}
			if (count.exact && missing === 0) return true;
		}
		let current: CountRead | undefined = count;
		if (asked > 0) {
			// Jobs may have shown up in stretches asked after the count: count again before halving.
			current = await this.reader.count(range);
			this.known.absorb(Infinity);
			if (!current) return false;
		}
		return await this.halve(range, current, ties);
	}

	/**
	 * Makes the part's known jobs agree with the index's count there by halving with counts (one
	 * row each; the right half's count follows by subtraction) until a part is small enough to read
	 * whole. What a read part does not show any more is marked gone, so later counts are not thrown
	 * off by it.
	 */
	private async halve(range: Range, count: CountRead, ties: boolean): Promise<boolean> {
		const known = this.known.activeIn(range);
		if (count.exact && count.total === known.length) return true;
		if (count.exact && count.total === 0) {
			for (const { uid } of known) this.known.markGone(uid);
			return true;
		}
		if (count.exact && count.total < known.length && !ties && !this.known.hasTies(range)) return true;
		const surplus = Math.abs(count.total - known.length);
		if ((count.exact && count.total <= LEAF_ROWS) || range.fromMs >= range.toMs || (count.exact && surplus * 4 >= known.length)) {
			return await this.readWhole(range, count);
		}
		const times = known.map((k) => k.createdMs).sort((a, b) => a - b);
		const middle = times.length > 0 ? times[(times.length - 1) >> 1] : Math.floor((range.fromMs + range.toMs) / 2);
		const midMs = Math.max(range.fromMs, Math.min(range.toMs - 1, middle));
		const left = await this.reader.count({ fromMs: range.fromMs, toMs: midMs });
		this.known.absorb(Infinity);
		if (!left) return false;
		let right: CountRead | undefined =
			count.exact && left.exact ? { total: count.total - left.total, exact: true } : await this.reader.count({ fromMs: midMs + 1, toMs: range.toMs });
		this.known.absorb(Infinity);
		if (!right) return false;
		if (right.total < 0) right = { total: 0, exact: false };
		const leftDone = await this.halve({ fromMs: range.fromMs, toMs: midMs }, left, ties);
		const rightDone = await this.halve({ fromMs: midMs + 1, toMs: range.toMs }, right, ties);
		return leftDone && rightDone;
	}

	/** Reads the part whole; what it does not show any more is gone. */
	private async readWhole(range: Range, count: CountRead): Promise<boolean> {
		const shown = new Set<string>();
		const known = this.known.activeIn(range);
		const read = await this.reader.readRange(range, () => 0, shown, count.exact ? Math.max(1, count.total) : undefined);
		this.known.absorb(Infinity);
		if (!read.complete) return false;
		for (const { uid } of known) if (!shown.has(uid)) this.known.markGone(uid);
		return true;
	}

	failure(): CycleOutcome['failure'] {
		const error = this.reader.interruptedBy;
		return error ? { error, kind: this.deps.classify(error) } : undefined;
	}

	/** What a failure means for the requests that follow: a 429's wait, a pause after a fault. */
	applyFailure(failure: CycleOutcome['failure'], trouble: TriggerState['trouble']): number {
		if (!failure) return 0;
		if (failure.kind.kind === 'rate-limited') return 0; // applied as it came (fetch)
		if (failure.kind.kind === 'passing') {
			// The pause doubles while the trouble lasts: a service that is down is not hammered.
			const lastedMs = trouble ? this.startMs - trouble.sinceMs : 0;
			const pauseMs = Math.min(MAX_FAULT_PAUSE_MS, Math.max(FAULT_PAUSE_MS, lastedMs / 2));
			this.budget.pause(pauseMs);
			return pauseMs;
		}
		return 0;
	}

	/** How the trouble streak stands after this poll: it ends once the head read came through. */
	troubleAfter(headRead: boolean, failure: CycleOutcome['failure']): TriggerState['trouble'] {
		const before = this.previous.trouble;
		if (headRead) return undefined;
		const passing = failure && failure.kind.kind !== 'lasting';
		const paused = !failure && this.reader.requests === 0 && this.budget.pausedUntilMs() > this.startMs;
		if (passing || (paused && before)) return before ? { ...before, polls: before.polls + 1 } : { sinceMs: this.startMs, polls: 1 };
		return before;
	}

	startedAt(): number {
		return this.startMs;
	}
}

/** Keeps only uids that later reads can meet again, at most `cap` of them; the hard cap moves the floor up. */
export function pruneSeen(
	seen: Map<string, number>,
	gone: Set<string>,
	floorMs: number,
	cap: number,
): { seen: Map<string, number>; gone: Set<string>; floorMs: number; capped: number } {
	// Below the floor a uid is only remembered (a repost of it is recognised), for a while.
	const kept = [...seen].filter(([, ms]) => ms > floorMs - REPOST_MEMORY_MS).sort((a, b) => b[1] - a[1]);
	let map = new Map(kept.slice(0, cap));
	let capped = 0;
	if (kept.length > cap) {
		const boundaryMs = kept[cap - 1][1];
		if (boundaryMs > floorMs) {
			// More uids inside the window than fit: the floor moves up to what is kept, and jobs of
			// the boundary millisecond stay together, or later reads could meet a forgotten one.
			map = new Map(kept.filter(([, ms]) => ms >= boundaryMs));
			capped = kept.filter(([, ms]) => ms > floorMs && ms < boundaryMs).length;
			floorMs = boundaryMs - 1;
		}
	}
	const keptGone = new Set([...gone].filter((uid) => (map.get(uid) ?? -Infinity) > floorMs));
	return { seen: map, gone: keptGone, floorMs, capped };
}

function finish(run: PollRun, watch: Watch | undefined, extra: { firstPoll: boolean; learning: boolean; passDone: boolean; headRead: boolean }): CycleOutcome {
	const failure = run.failure();
	const trouble = run.troubleAfter(extra.headRead, failure);
	run.applyFailure(failure, trouble);
	let capped = 0;
	let kept = watch;
	if (watch) {
		const pruned = pruneSeen(run.known.seen, run.known.gone, watch.floorMs, run.settings.maxSeenUids ?? MAX_SEEN_UIDS);
		capped = pruned.capped;
		const floorMs = pruned.floorMs;
		const finalMs = Math.max(watch.finalMs, floorMs);
		const pending = watch.pending
			.filter((p) => p.toMs > floorMs)
			.map((p) => ({ ...p, fromMs: Math.max(p.fromMs, floorMs + 1) }));
		const pass = watch.pass && { ...watch.pass, fromMs: Math.max(watch.pass.fromMs, finalMs + 1) };
		kept = { ...watch, seen: pruned.seen, gone: pruned.gone, floorMs, finalMs, pending, ...(pass ? { pass } : {}) };
		if (!pass) delete kept.pass;
	}
	return {
		emit: run.known.fresh.sort(compareNewestFirst).map((read) => read.job),
		state: {
			...(kept ? { watch: kept } : {}),
			requests: run.budget.toLedger(),
			...(trouble ? { trouble } : {}),
			lastPollMs: run.startedAt(),
			activatedMs: run.previous.activatedMs,
		},
		reader: run.reader,
		budget: run.budget,
		late: run.known.late,
		gone: run.known.goneFound,
		reposts: run.known.reposts,
		capped,
		...(failure ? { failure } : {}),
		firstPoll: extra.firstPoll,
		learning: extra.learning,
		passDone: extra.passDone,
	};
}

function withOffset(offsets: Watch['offsets'], run: PollRun, newestMs: number): Watch['offsets'] {
	if (!Number.isFinite(newestMs)) return offsets;
	const nowMs = run.now;
	return [...offsets, { atMs: nowMs, offsetMs: newestMs - nowMs }].filter((o) => o.atMs > nowMs - OFFSET_MAX_AGE_MS).slice(-OFFSET_SAMPLES);
}

/**
 * Activation: read the Late Window (and the Emit on First Poll hours) once, so that every job the
 * index shows from now on can be told apart from the ones it already showed. A silent first read
 * is not bound by Max Jobs per Poll (a job left unread could not be told from a late one later);
 * what it cannot finish in this poll stays to read, silently, on the next.
 */
async function firstCycle(previous: TriggerState, settings: CycleSettings, deps: CycleDeps): Promise<CycleOutcome> {
	const emitting = settings.firstPollLookbackMs !== undefined;
	const run = new PollRun(previous, settings, deps, true, emitting ? settings.maxJobsPerPoll : LEARN_MAX_ROWS);
	const startMs = run.startedAt();
	const windowFromMs = startMs - INDEX_LAG_GUESS_MS - Math.max(settings.lateWindowMs, settings.firstPollLookbackMs ?? 0);
	// Jobs posted since the first attempt are new even if that attempt failed (a 429 at activation).
	const learnBeforeMs = emitting ? startMs - settings.firstPollLookbackMs! : previous.activatedMs < startMs ? previous.activatedMs : Infinity;
	const read = await run.reader.readRange({ fromMs: windowFromMs }, run.known.activeAt);
	run.known.absorb(-Infinity, learnBeforeMs);
	const none = { firstPoll: true, learning: true, passDone: false, headRead: false };
	if (run.reader.requests === 0) return finish(run, undefined, none);
	const newestMs = run.known.newestRead();
	const pending: PendingRead[] = [];
	if (!read.complete && read.unread?.toMs !== undefined) {
		// What is left of the activation read is learned like the rest of it (all of it, unless the
		// activation came late and jobs posted since the first attempt are to be sent).
		pending.push({ fromMs: windowFromMs, toMs: read.unread.toMs, learnBeforeMs: Math.min(learnBeforeMs, read.unread.toMs + 1) });
	}
	const watch: Watch = {
		headMs: Math.max(windowFromMs - 1, newestMs),
		finalMs: windowFromMs - 1,
		floorMs: windowFromMs - 1,
		seen: run.known.seen,
		gone: run.known.gone,
		pending,
		passStartedMs: startMs,
		wholePasses: true,
		checkedMs: Math.max(windowFromMs - 1, newestMs),
		tiesSeenMs: run.known.tiesFound ? startMs : 0,
		offsets: withOffset([], run, newestMs),
	};
	return finish(run, watch, { firstPoll: true, learning: pending.length > 0, passDone: false, headRead: true });
}

/**
 * One poll (DESIGN.md beside this file explains the reads and the invariant). In order: parts
 * left to read whole (an unfinished head, final or activation read); the head, everything created
 * after the newest job read; then, once a pass period has passed, the unsettled window again:
 * stretch by stretch where the requests allow it (free where nothing is new, and the final look of
 * what the Late Window has passed), else counted; the final looks of what the Late Window has
 * passed; and a count that settles what had its final look. Every request is taken from the
 * request budget; any failure ends the reading and keeps what was paid for.
 */
export async function runCycle(previous: TriggerState | undefined, settings: CycleSettings, deps: CycleDeps): Promise<CycleOutcome> {
	const base: TriggerState = previous ?? { requests: freshLedger(deps.now(), settings), lastPollMs: deps.now(), activatedMs: deps.now() };
	if (!base.watch) return await firstCycle(base, settings, deps);
	// New jobs (the head and parts left to read) may take Max Jobs per Poll rows, and the late-job
	// looks as many again: a busy search keeps up with both.
	const run = new PollRun(base, settings, deps, true, 2 * settings.maxJobsPerPoll);
	const { known, reader } = run;
	const startMs = run.startedAt();
	const watch: Watch = { ...base.watch, pending: [...base.watch.pending] };
	const stop = (headRead: boolean, passDone = false) =>
		finish(run, { ...watch, seen: known.seen, gone: known.gone }, { firstPoll: false, learning: watch.pending.some((p) => p.learnBeforeMs !== undefined), passDone, headRead });

	// Parts left to read whole come first, oldest first: a poll never leaves two holes.
	while (watch.pending.length > 0) {
		const part = watch.pending[0];
		const read = await reader.within(settings.maxJobsPerPoll - reader.rows, async () => await reader.readRange(part, known.activeAt));
		known.absorb(part.finalToMs !== undefined ? Infinity : -Infinity, part.learnBeforeMs);
		if (!read.complete) {
			if (read.unread?.toMs !== undefined) watch.pending[0] = { ...part, toMs: read.unread.toMs };
			return stop(false);
		}
		watch.pending.shift();
		if (part.finalToMs !== undefined) settleRead(watch, { fromMs: part.fromMs, toMs: part.finalToMs });
	}

	// The head: every job created after the newest one read so far.
	const headBeforeMs = watch.headMs;
	const newestBefore = known.newestRead();
	const head = await reader.within(settings.maxJobsPerPoll - reader.rows, async () => await reader.readRange({ fromMs: headBeforeMs + 1 }, known.activeAt));
	known.absorb();
	const newestMs = known.newestRead();
	if (newestMs > newestBefore && newestMs > headBeforeMs) watch.offsets = withOffset(watch.offsets, run, newestMs);
	if (!head.complete) {
		if (head.unread?.toMs !== undefined) {
			watch.pending.push({ fromMs: headBeforeMs + 1, toMs: head.unread.toMs });
			watch.headMs = Math.max(watch.headMs, newestMs);
		}
		return stop(false);
	}
	watch.headMs = Math.max(watch.headMs, newestMs);
	if (known.tiesFound) watch.tiesSeenMs = startMs;

	const ties = watch.tiesSeenMs > startMs - DAY_MS;
	const indexMs = indexNowMs(watch.offsets, startMs);
	const everyMs = passEveryMs(settings.intervalMs);
	let passDone = false;

	const wholePass = (watch.pass as Pass | undefined)?.finalUpToMs;
	// Everything created up to finalDueMs is past the Late Window; the final looks go no further than the head.
	const finalDueMs = indexMs - settings.lateWindowMs;
	const target = Math.min(finalDueMs, headBeforeMs);
	if (ties && watch.pending.length === 0 && target - watch.floorMs >= TIES_FINAL_EVERY_MS) {
		// Where the index makes ties, what the Late Window has passed is read whole once, from the
		// floor: a job posted late in the very millisecond of a known one is in no open stretch,
		// and a count of the part cannot tell it from a job removed there. The read settles it.
		const part = finalReadPart(known, { fromMs: watch.floorMs + 1, toMs: target }, 2 * settings.maxJobsPerPoll - reader.rows);
		const read = await reader.readRange(part, known.activeAt);
		known.absorb(headBeforeMs);
		if (read.complete) settleRead(watch, part);
		else if (read.unread?.toMs !== undefined) watch.pending.push({ ...part, toMs: read.unread.toMs, finalToMs: part.toMs });
		passDone = read.complete && part.toMs >= target;
	} else if (!ties && (wholePass === undefined || wholePass === -Infinity) && target > watch.finalMs) {
		// Without a whole pass the final looks keep up by themselves: stretch by stretch while the
		// bucket has requests, the whole part once it has waited too long.
		const range = { fromMs: watch.finalMs + 1, toMs: target };
		// All this poll can still send: the bucket refills before the next poll's head read.
		const spare = run.budget.remaining();
		const stretches = known.openStretches(range);
		const done = await run.askStretches(range, headBeforeMs, {
			limit: spare,
			onAsked: (stretch) => {
				watch.finalMs = stretch.toMs;
			},
		});
		if (done) watch.finalMs = target;
		else if (!reader.interruptedBy && finalDueMs - watch.finalMs >= FINAL_LAG_MAX_MS && stretches.length > spare) {
			const part = finalReadPart(known, { fromMs: watch.finalMs + 1, toMs: target }, 2 * settings.maxJobsPerPoll - reader.rows);
			const read = await reader.readRange(part, known.activeAt);
			known.absorb(headBeforeMs);
			if (read.complete) settleRead(watch, part);
			else if (read.unread?.toMs !== undefined) watch.pending.push({ ...part, toMs: read.unread.toMs, finalToMs: part.toMs });
		}
		passDone = watch.finalMs >= target;
	}

	// What had its final look is counted once (ties are in no open stretch), then settled: only
	// then are its uids forgotten, so a late tie is always counted before it is forgotten.
	const unsettled = { fromMs: watch.floorMs + 1, toMs: watch.finalMs };
	const countDue = !ties && unsettled.toMs - watch.floorMs >= COUNT_AT_LEAST_EVERY_MS;
	if (unsettled.toMs >= unsettled.fromMs && countDue && watch.pending.length === 0) {
		if (!(await run.check(unsettled, false, ties))) return stop(true, passDone);
		watch.floorMs = watch.finalMs;
	}
	// A new pass once a pass period has passed: every stretch of the unsettled window if the
	// requests allow it, else as many of the newest as they allow (late jobs are mostly recent),
	// and one count of the older rest.
	if (!watch.pass && startMs - watch.passStartedMs >= everyMs) {
		watch.passStartedMs = startMs;
		const range = { fromMs: watch.finalMs + 1, toMs: headBeforeMs };
		const stretches = known.openStretches(range);
		// Where the index makes ties, no stretch holds a late one: only a read of the whole part is a final look.
		const finalUpToMs = ties ? -Infinity : indexMs - settings.lateWindowMs;
		const affordable = passSupply(run, everyMs, known.openStretches({ fromMs: range.fromMs, toMs: finalUpToMs + everyMs }).length);
		watch.wholePasses = stretches.length <= affordable.whole;
		if (watch.wholePasses) {
			watch.pass = { startedMs: startMs, fromMs: range.fromMs, cursorMs: range.toMs, toMs: range.toMs, finalUpToMs };
		} else if (affordable.partial > 0 && stretches.length > 0) {
			const newest = stretches.slice(Math.max(0, stretches.length - affordable.partial));
			watch.pass = { startedMs: startMs, fromMs: newest[0].fromMs, cursorMs: range.toMs, toMs: range.toMs, finalUpToMs: -Infinity };
		}
	}

	// Where requests are too scarce to ask every stretch, each part of the window gets one count
	// once it is old enough that most of its late jobs have shown (YOUNG_CHECK_AGE_MS): it finds
	// them, and jobs posted in the very millisecond of known ones, long before the final look.
	const checkTo = Math.min(headBeforeMs, indexMs - YOUNG_CHECK_AGE_MS);
	const checkFrom = Math.max(watch.checkedMs, watch.finalMs) + 1;
	if (!watch.wholePasses && checkTo - checkFrom >= YOUNG_CHECK_STEP_MS && run.budget.remaining() > 0) {
		// Done or not, the part had its count: the final look finds what this one did not, and a
		// count that ran out of requests is not paid for again on every poll.
		watch.checkedMs = checkTo;
		if (!(await run.check({ fromMs: checkFrom, toMs: checkTo }, true, ties))) return stop(true, passDone);
	}

	// A pass held back far past its period (429s, a small budget) gives way to the final looks below.
	if (watch.pass && startMs - watch.pass.startedMs > 3 * everyMs) delete watch.pass;
	if (watch.pass) {
		const pass: Pass = { ...watch.pass };
		watch.pass = pass;
		const left = { fromMs: pass.fromMs, toMs: pass.cursorMs };
		const quota = sweepQuota(pass, known.openStretches(left).length, startMs, startMs - base.lastPollMs, everyMs);
		const done = await run.askStretches(left, headBeforeMs, {
			limit: quota,
			newestFirst: true,
			onAsked: (stretch) => {
				pass.cursorMs = stretch.fromMs - 1;
			},
		});
		if (!done && reader.spent()) return stop(true);
		if (done) {
			// Every stretch was asked after the pass started: what the Late Window had passed over
			// then had its final look (a pass of the newest stretches only gives none). Late ties are
			// in no stretch: where the index makes them, a count finds them.
			if (pass.fromMs <= watch.finalMs + 1) watch.finalMs = Math.max(watch.finalMs, Math.min(pass.finalUpToMs, pass.toMs));
			delete watch.pass;
			passDone = true;
			const young = { fromMs: Math.max(pass.fromMs, watch.finalMs + 1), toMs: pass.toMs };
			if (ties && !(await run.check(young, false, ties))) return stop(true, passDone);
		}
	}
	if (known.tiesFound) watch.tiesSeenMs = startMs;
	return stop(true, passDone);
}

/**
 * A part read whole after the Late Window had passed over it: every job of it was read (a late
 * one in the millisecond of a known one too), so it had its final look, and if it reached down to
 * the floor, it is settled as well.
 */
function settleRead(watch: Watch, part: Range): void {
	if (part.fromMs > watch.finalMs + 1) return;
	watch.finalMs = Math.max(watch.finalMs, part.toMs);
	if (part.fromMs <= watch.floorMs + 1) watch.floorMs = Math.max(watch.floorMs, part.toMs);
}

/**
 * How many stretches a pass can ask on its own within its period: the requests the bucket holds
 * and earns meanwhile, less the head reads of the polls in between, and no more than those polls
 * may send. `whole` for a pass over the whole unsettled window (which gives the final looks too);
 * `partial` for one over its newest stretches, leaving room for the `finals` due meanwhile.
 */
function passSupply(run: PollRun, everyMs: number, finals: number): { whole: number; partial: number } {
	const { settings, budget } = run;
	const polls = Math.max(1, Math.floor(everyMs / settings.intervalMs));
	const earned = polls > 1 ? (settings.requestsPerMinute * budget.share() * everyMs) / MINUTE_MS : 0;
	const supply = SWEEP_SHARE * (Math.min(budget.available() + earned, perPollCap(settings) * polls) - (polls - 1));
	return { whole: Math.floor(supply), partial: Math.floor(supply - finals) };
}

/**
 * How many open stretches this poll asks: all that are left when the next poll (as far apart as
 * this one from the last) would come after the pass's period; otherwise a share in proportion, so
 * a pass spreads evenly over the polls of its period instead of landing on one.
 */
function sweepQuota(pass: Pass, left: number, startMs: number, sinceLastPollMs: number, everyMs: number): number {
	const deadlineMs = pass.startedMs + everyMs;
	if (startMs + sinceLastPollMs >= deadlineMs) return left;
	return Math.ceil((left * Math.max(1, sinceLastPollMs)) / (deadlineMs - startMs));
}

/** The oldest part of `range` whose known jobs fit in `rows`: a final look read whole, a poll's worth at a time. */
function finalReadPart(known: Known, range: Range, rows: number): Range {
	const times = known
		.activeIn(range)
		.map((k) => k.createdMs)
		.sort((a, b) => a - b);
	if (times.length <= Math.max(1, rows)) return range;
	return { fromMs: range.fromMs, toMs: Math.max(range.fromMs, times[Math.max(1, rows) - 1]) };
}
