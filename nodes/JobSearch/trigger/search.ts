import { Reader, type CountRead, type Page, type PageRequest, type RangeRead, type TimeRange } from '../paging/reader';
import type { CycleDeps, CycleSettings } from './types';
import { Known } from './known';
import { RequestBudget, windowCap } from './requests';
import type { Pass, PendingRead, Range, SearchState, Watch } from './state';
import {
	ACTIVATION_READ_GRACE_MS,
	AHEAD_ALL_ASKABLE_SHARE,
	AHEAD_ROWS_PER_HOUR,
	AHEAD_ROWS_PER_JOB,
	CHECK_MIN_ROWS,
	COUNT_AT_LEAST_EVERY_MS,
	COUNT_MAX_KNOWN,
	DEFER_AFTER_ROWS,
	FINAL_LAG_MAX_MS,
	FRESHNESS_MS,
	FRESHNESS_ROWS_MAX,
	FRESHNESS_ROWS_PER_JOB,
	FRESHNESS_ROWS_START,
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
	SETTLE_RESERVED_REQUESTS,
	SETTLE_URGENT_SHARE,
	SWEEP_SHARE,
	TIES_FINAL_EVERY_MS,
	YOUNG_CHECK_AGE_MS,
	YOUNG_CHECK_LONGEST_STEP_MS,
	YOUNG_CHECK_MIN_JOBS,
	YOUNG_CHECK_STEP_MS,
} from './tunables';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

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

function withOffset(offsets: Watch['offsets'], nowMs: number, newestMs: number): Watch['offsets'] {
	if (!Number.isFinite(newestMs)) return offsets;
	return [...offsets, { atMs: nowMs, offsetMs: newestMs - nowMs }].filter((o) => o.atMs > nowMs - OFFSET_MAX_AGE_MS).slice(-OFFSET_SAMPLES);
}

/** What one search's reading in one poll came to. */
export interface SearchResult {
	state: SearchState;
	reader: Reader;
	known: Known;
	/** The head (or the activation read) came through. */
	headRead: boolean;
	firstPoll: boolean;
	learning: boolean;
	passDone: boolean;
	capped: number;
}

/**
 * One search's reading in one poll (DESIGN.md beside this file explains the reads and the
 * invariant): the parts left to read whole and the head first (readNew), then its late-job looks
 * (look). Every request comes out of the poll's one request budget, shared by every search of the
 * trigger. Nothing here touches n8n.
 */
export class SearchRun {
	readonly reader: Reader;
	readonly known: Known;
	private readonly startMs: number;
	private watch?: Watch;
	private headBeforeMs = -Infinity;
	private headRead = false;
	private firstPoll = false;
	private passDone = false;
	private stopped = false;
	/** When this poll first got a page from the index. */
	private firstPageMs: number | undefined;
	/** The first page of the head read: every search's head meets the index at the same moment. */
	private meetingHeads = false;
	/** What this search's further pages wait for (another search's activation read, sent together with this one's). */
	private morePagesAfter: Promise<unknown> | undefined;

	constructor(
		readonly key: string,
		readonly previous: SearchState,
		readonly settings: CycleSettings,
		readonly deps: CycleDeps,
		readonly budget: RequestBudget,
		/** The poll before, across searches: a pass spreads itself by the time between polls. */
		private readonly lastPollMs: number,
		/** Whether another search of the trigger knows a uid already (sent it, or learned it). */
		knownElsewhere: (uid: string) => boolean,
		/** How many searches share the poll's requests. */
		readonly searchCount = 1,
	) {
		this.startMs = deps.now();
		const deadlineMs = this.startMs + settings.pollTimeMs * POLL_TIME_SHARE;
		this.reader = new Reader(async (request) => await this.fetch(request), {
			rowsPerRequest: settings.rowsPerRequest,
			maxRows: previous.watch ? 2 * settings.maxJobsPerPoll : settings.firstPollLookbackMs !== undefined ? settings.maxJobsPerPoll : LEARN_MAX_ROWS,
			deadlineMs,
			now: deps.now,
			admit: async () => {
				const burst = this.meetingHeads;
				this.meetingHeads = false;
				if (!burst) await this.morePagesAfter?.catch(() => undefined);
				return await this.budget.take(burst);
			},
			throwFirstFailure: false,
		});
		this.known = new Known(this.reader, previous.watch, true, knownElsewhere);
		if (previous.watch) this.watch = { ...previous.watch, pending: [...previous.watch.pending] };
		this.known.unread = () => this.watch?.pending.filter((p) => p.deferred) ?? [];
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
			if ('page' in answer) {
				this.firstPageMs ??= this.deps.now();
				return answer.page;
			}
			const meaning = this.deps.classify(answer.error);
			if (meaning.kind === 'rate-limited') {
				this.budget.rateLimited(meaning.retryAfterMs);
			}
			if (meaning.kind !== 'rate-limited' || !(await this.budget.take())) throw answer.error;
		}
	}

	get now(): number {
		return this.deps.now();
	}

	/** Every open stretch of `range`, one request each, oldest first; false if the poll stopped before the end. */
	async askStretches(
		range: Range,
		lateBeforeMs: number,
		options: { limit?: number; onAsked?: (stretch: Range) => void } = {},
	): Promise<boolean> {
		const { limit = Infinity, onAsked } = options;
		const stretches = this.known.openStretches(range);
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
	 * A count that only makes late jobs come sooner (the final looks find them anyway): it runs while
	 * the search has spare rows (FRESHNESS_ROWS_PER_JOB of each new job), and spends them on what it
	 * pays beyond the rows of the jobs it finds. Returns false once the poll has stopped (out of
	 * requests, rows or time), not when only the spare rows ran out.
	 */
	private async forFreshness(check: () => Promise<boolean>): Promise<boolean> {
		const watch = this.watch!;
		if (watch.spareRows <= 0) return true;
		const rowsBefore = this.reader.rows;
		const knownBefore = this.known.seen.size;
		try {
			// No more rows than are saved (a count and its halving may always finish a small step):
			// a count that would read a bulk import whole stops, and its final look reads it instead.
			await this.reader.within(Math.ceil(watch.spareRows), check);
			return !this.reader.spent();
		} finally {
			watch.spareRows -= this.reader.rows - rowsBefore - (this.known.seen.size - knownBefore);
		}
	}

	/**
	 * Where the index makes ties, a job bought before its final look is bought again at it (a whole
	 * read): such reads spend the ahead rows (AHEAD_ROWS_PER_JOB), and stop where they run out.
	 */
	private async ahead<T>(ties: boolean, read: () => Promise<T>): Promise<T> {
		if (!ties) return await read();
		const watch = this.watch!;
		const rowsBefore = this.reader.rows;
		try {
			return await this.reader.within(Math.max(0, Math.floor(watch.aheadRows)), read);
		} finally {
			watch.aheadRows = Math.max(0, watch.aheadRows - (this.reader.rows - rowsBefore));
		}
	}

	/**
	 * Where the index makes no ties and the poll's time, not Requests per Minute, limits what a poll
	 * may send (n8n 2.41's 36-second polls every 15 minutes or longer), so that the final looks can
	 * ask fewer than AHEAD_ALL_ASKABLE_SHARE of the stretches the new jobs bring, how many jobs the
	 * head may read ahead of their final looks: as many as those can ask (a stretch each), an hour's
	 * worth at most and a poll's at least. Elsewhere (undefined) the head reads every new job. The
	 * jobs an hour brings are those of the last hour that had its final look: all read by then.
	 */
	private stretchRoom(): { perHour: number; most: number } | undefined {
		const { settings, searchCount } = this;
		const watch = this.watch!;
		const requests = perPollCap(settings);
		// With several searches each would leave a part of its own: a job one search's head sends
		// would wait in another's, where it could not be named (mayHaveMissed asks only below a head).
		if (searchCount > 1 || requests >= (settings.requestsPerMinute * settings.intervalMs) / MINUTE_MS) return undefined;
		const perHourOf = (perPoll: number) => (Math.max(0, perPoll) * HOUR_MS) / settings.intervalMs;
		// What each poll leaves the final looks after the head read...
		const askable = requests - 1;
		const jobsPerHour = this.known.activeIn({ fromMs: watch.finalMs - HOUR_MS + 1, toMs: watch.finalMs }).length;
		if (perHourOf(askable) >= AHEAD_ALL_ASKABLE_SHARE * jobsPerHour) return undefined;
		// ...and after the read of the part the head leaves, once it leaves one.
		const perPoll = Math.max(0, askable - 1);
		return { perHour: perHourOf(perPoll), most: Math.max(perHourOf(perPoll), perPoll) };
	}

	/**
	 * Requests the final looks leave for the count that settles what already had its final look,
	 * once unsettled uids fill half the uid cap: without them a poll short of requests (a busy
	 * search in n8n 2.41's 5-minute polls) spends all on final looks, never settles, and the cap
	 * forgets unsettled jobs. Sooner, they would cost rows: where the final looks fall behind, their
	 * whole reads settle by themselves.
	 */
	private settleReserve(ties: boolean): number {
		const watch = this.watch!;
		if (ties || watch.finalMs - watch.floorMs < COUNT_AT_LEAST_EVERY_MS) return 0;
		const unsettled = [...this.known.seen.values()].filter((ms) => ms > watch.floorMs).length;
		if (unsettled < (this.settings.maxSeenUids ?? MAX_SEEN_UIDS) * SETTLE_URGENT_SHARE) return 0;
		return Math.min(SETTLE_RESERVED_REQUESTS, this.countParts({ fromMs: watch.floorMs + 1, toMs: watch.finalMs }).length);
	}

	/**
	 * Counts `range` (one row) in parts of at most COUNT_MAX_KNOWN known jobs, and finds what the
	 * index holds there beyond them: a job shown late, or one posted in the very millisecond of a
	 * known one (no open stretch holds it). `stretchesFirst`: ask its newest open stretches before
	 * halving (they were not just asked). Returns false when the poll stopped before the end.
	 */
	async check(range: Range, stretchesFirst: boolean, ties: boolean): Promise<boolean> {
		return (await this.checkedUpTo(range, stretchesFirst, ties)) >= range.toMs;
	}

	/**
	 * As check, part by part from the oldest: the end of the last part it finished (before
	 * range.fromMs when none), so a check the poll could not finish is not begun again from the
	 * start on every poll.
	 */
	private async checkedUpTo(range: Range, stretchesFirst: boolean, ties: boolean): Promise<number> {
		let doneToMs = range.fromMs - 1;
		for (const part of this.countParts(range)) {
			this.reader.allowAtLeast(CHECK_MIN_ROWS);
			const count = await this.reader.count(part);
			this.known.absorb(Infinity);
			if (!count) return doneToMs;
			if (!(await this.resolve(part, count, stretchesFirst, ties))) return doneToMs;
			doneToMs = part.toMs;
		}
		return doneToMs;
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

	/**
	 * The parts left to read whole, then the head; on a search's first poll, the activation read.
	 * `rows`: what the trigger's Max Jobs per Poll leaves for new jobs (the activation read is not
	 * bound by it). `morePagesAfter`: an activation read's pages after its first wait for it.
	 */
	async readNew(rows: number, morePagesAfter?: Promise<unknown>): Promise<void> {
		this.morePagesAfter = morePagesAfter;
		if (!this.watch) return await this.learn();
		const { known, reader } = this;
		const watch = this.watch;
		// Parts left to read whole come first, oldest first: a poll never leaves two unfinished reads.
		// A part the head left for its final look waits until the Late Window has passed over it,
		// and is read from where the final looks stand (a whole read there, the index making ties):
		// so the parts left by several polls are read in one, however few polls there are.
		for (let i = 0; i < watch.pending.length; ) {
			const left = watch.pending[i];
			if (left.deferred && !this.deferredDue(left)) {
				i++;
				continue;
			}
			const part = left.deferred ? { ...left, fromMs: Math.min(left.fromMs, watch.finalMs + 1) } : left;
			// A part left for its final look is that look: it may read what the looks may (twice Max
			// Jobs per Poll), or a small Max Jobs per Poll would keep a busy search's head waiting for it.
			const read = await reader.within(left.deferred ? Infinity : rows - reader.rows, async () => await reader.readRange(part, known.activeAt));
			known.absorb(part.finalToMs !== undefined ? Infinity : -Infinity, part.learnBeforeMs);
			if (!read.complete) {
				if (read.unread?.toMs !== undefined) watch.pending[i] = { ...part, toMs: read.unread.toMs };
				this.stopped = true;
				return;
			}
			watch.pending.splice(i, 1);
			if (part.finalToMs !== undefined) settleRead(watch, { fromMs: part.fromMs, toMs: part.finalToMs });
		}

		// The head: every job created after the newest one read so far. Its first page goes with the
		// other searches' first pages, so a refresh of the index does not fall between them.
		this.headBeforeMs = watch.headMs;
		this.headRead = await this.readHead(rows);
	}

	/**
	 * Whether late ties are to be feared: where the index's createdAt values are whole minutes (a
	 * late job shares a known minute often, at any volume), or, once two jobs were seen in one
	 * millisecond lately, whole seconds (any known job's second may get another), or where the
	 * unsettled window, or the Late Window before it, holds two jobs in one millisecond (a bulk
	 * import, up to its last job). Elsewhere a job shares a known millisecond by a rare chance
	 * only, and the settling count finds it unless a removal beside it hides it.
	 */
	private makesTies(headMs: number): boolean {
		const watch = this.watch!;
		const tiesFromMs = watch.floorMs + 1 - this.settings.lateWindowMs;
		const recent = watch.tiesSeenMs > this.startMs - DAY_MS;
		// Where a tie was seen counts even once its twin has moved (posted again) or gone: the late
		// tie its millisecond may still get is in no stretch, and a count can miss it.
		return this.known.wholeMinutes() || (recent && (this.known.coarseTimes() || watch.tiesAtMs >= tiesFromMs || this.known.hasTies({ fromMs: tiesFromMs, toMs: headMs })));
	}

	/** Keeps when and where this poll found two jobs in one millisecond. */
	private noteTies(watch: Watch): void {
		if (!this.known.tiesFound) return;
		watch.tiesSeenMs = this.startMs;
		watch.tiesAtMs = Math.max(watch.tiesAtMs, this.known.tiesAtMs);
	}

	/** Where the oldest part the head left for its final look begins: no final look, count or pass goes past it unread. */
	private deferredFromMs(): number {
		return Math.min(Infinity, ...this.watch!.pending.filter((p) => p.deferred).map((p) => p.fromMs));
	}

	/**
	 * A part the head left for its final look is read once the Late Window has passed over it, and
	 * no other part below it waits to be read whole (it is read from where the final looks stand).
	 */
	private deferredDue(part: PendingRead): boolean {
		const watch = this.watch!;
		const readBelow = watch.finalMs + 1 >= part.fromMs || !watch.pending.some((p) => !p.deferred && p.fromMs < part.fromMs);
		return indexNowMs(watch.offsets, this.startMs) - this.settings.lateWindowMs >= part.toMs && readBelow;
	}

	/** Reads every job created after the newest one read; false if the poll stopped before the end. */
	private async readHead(rows: number): Promise<boolean> {
		const { known, reader } = this;
		const watch = this.watch!;
		const fromMs = watch.headMs + 1;
		const newestBefore = known.newestRead();
		let range: TimeRange = { fromMs };
		let head: RangeRead;
		let deferred = false;
		// The head reads ahead of the final looks no more than its ahead rows allow, and leaves the
		// rest for one whole read once the Late Window has passed over it, a row a job. Where the
		// index makes ties, the final look reads every part whole, so what the head buys is bought
		// again then (a busy search; past DEFER_AFTER_ROWS, a bulk import). Elsewhere each job read
		// makes a stretch for the final looks to ask, and where they lack the requests they read
		// whole what they cannot ask (n8n 2.41's 36-second polls). It reads one row at least: the
		// newest job tells where the part left ends.
		const tiesKnown = this.makesTies(watch.headMs);
		const gated = tiesKnown || this.stretchRoom() !== undefined;
		const aheadMost = gated ? Math.max(1, Math.floor(watch.aheadRows)) : Infinity;
		const headRowsBefore = reader.rows;
		this.meetingHeads = true;
		for (;;) {
			const rowsBefore = reader.rows;
			const room = rows - reader.rows;
			const aheadLeft = Math.max(tiesKnown ? aheadMost : 1, aheadMost - (reader.rows - headRowsBefore));
			const chunk = Math.min(room, DEFER_AFTER_ROWS, aheadLeft);
			head = await reader.within(chunk, async () => await reader.readRange(range, known.activeAt));
			this.meetingHeads = false;
			known.absorb();
			const unreadToMs = head.unread?.toMs;
			if (head.complete || unreadToMs === undefined || reader.interruptedBy || chunk === room || reader.rows - rowsBefore < chunk) break;
			if (tiesKnown || known.tiesFound || this.makesTies(watch.headMs) || chunk === aheadLeft) {
				deferred = true;
				break;
			}
			range = { fromMs, toMs: unreadToMs };
		}
		// Where ties became known only now, what was bought before is not held against the next polls.
		if (tiesKnown || (gated && !known.tiesFound)) watch.aheadRows = Math.max(0, watch.aheadRows - (reader.rows - headRowsBefore));
		const newestMs = known.newestRead();
		if (newestMs > newestBefore && newestMs >= fromMs) watch.offsets = withOffset(watch.offsets, this.now, newestMs);
		if (!head.complete) {
			if (head.unread?.toMs !== undefined) {
				const left: PendingRead = { fromMs, toMs: head.unread.toMs, ...(deferred ? { deferred: true, finalToMs: head.unread.toMs } : {}) };
				// Left parts close together become one (the jobs the head read between them are bought
				// again at the final look anyway): one read of it, not one a poll, and the reads of them
				// keep ahead of the polls that leave them.
				const last = watch.pending[watch.pending.length - 1];
				if (deferred && last?.deferred && left.toMs - last.fromMs <= TIES_FINAL_EVERY_MS && (tiesKnown || known.tiesFound)) {
					watch.pending[watch.pending.length - 1] = { ...last, toMs: left.toMs, finalToMs: left.toMs };
				} else watch.pending.push(left);
				watch.headMs = Math.max(watch.headMs, newestMs);
			}
			if (!deferred) {
				this.stopped = true;
				return false;
			}
		}
		watch.headMs = Math.max(watch.headMs, newestMs);
		this.noteTies(watch);
		return true;
	}

	/** Whether this poll reads the search's Late Window for the first time (its activation). */
	get activating(): boolean {
		return !this.previous.watch;
	}

	/**
	 * Activation: read the Late Window (and the Emit on First Poll hours) once, so that every job
	 * the index shows from now on can be told apart from the ones it already showed. A silent first
	 * read is not bound by Max Jobs per Poll (a job left unread could not be told from a late one
	 * later); what it cannot finish in this poll stays to read, silently, on the next.
	 */
	private async learn(): Promise<void> {
		const { settings, known, reader } = this;
		const startMs = this.startMs;
		this.firstPoll = true;
		this.stopped = true;
		const emitting = settings.firstPollLookbackMs !== undefined;
		// Jobs posted since the first attempt are new even if that attempt failed (a 429 at activation)
		// or n8n did not keep it: the read reaches the Late Window before it.
		const windowFromMs = Math.min(startMs, this.previous.activatedMs) - INDEX_LAG_GUESS_MS - Math.max(settings.lateWindowMs, settings.firstPollLookbackMs ?? 0);
		// Its first page goes with the other searches' (as a head's does): a job that comes into view
		// between two searches' activation reads would be history to the later one.
		this.meetingHeads = true;
		const read = await reader.readRange({ fromMs: windowFromMs }, known.activeAt);
		this.meetingHeads = false;
		// When the index was first read later than the activation (the first attempt failed, a 429
		// was waited out, n8n did not keep that poll), what it showed at activation is unknown: a job
		// posted up to the index's usual delay before it may have come into view only since, and is
		// new. Those few are sent rather than risk losing one (never lost before never flooded).
		const readLate = (this.firstPageMs ?? Infinity) > this.previous.activatedMs + ACTIVATION_READ_GRACE_MS;
		const learnBeforeMs = emitting ? startMs - settings.firstPollLookbackMs! : readLate ? this.previous.activatedMs - INDEX_LAG_GUESS_MS : Infinity;
		known.absorb(-Infinity, learnBeforeMs);
		if (reader.requests === 0) return;
		const newestMs = known.newestRead();
		const pending: PendingRead[] = [];
		if (!read.complete && read.unread?.toMs !== undefined) {
			// What is left of the activation read is read on a later poll, when what the index shows
			// there may have come into view since the activation (a late tie, a straggler): as for an
			// activation read that came late, the jobs posted in the index's usual delay before the
			// activation are sent rather than risk losing one; the older ones are learned.
			const restLearnBeforeMs = Math.min(learnBeforeMs, this.previous.activatedMs - INDEX_LAG_GUESS_MS);
			pending.push({ fromMs: windowFromMs, toMs: read.unread.toMs, learnBeforeMs: Math.min(restLearnBeforeMs, read.unread.toMs + 1) });
		}
		this.watch = {
			headMs: Math.max(windowFromMs - 1, newestMs),
			finalMs: windowFromMs - 1,
			floorMs: windowFromMs - 1,
			seen: known.seen,
			gone: known.gone,
			pending,
			// The first pass follows at once: each stretch is asked again within a period of the activation read.
			passStartedMs: startMs - passEveryMs(settings.intervalMs),
			wholePasses: true,
			checkedMs: Math.max(windowFromMs - 1, newestMs),
			tiesSeenMs: known.tiesFound ? startMs : 0,
			tiesAtMs: known.tiesAtMs,
			spareRows: FRESHNESS_ROWS_START,
			aheadRows: DEFER_AFTER_ROWS,
			offsets: withOffset([], this.now, newestMs),
		};
		this.headRead = true;
	}

	/**
	 * The late-job looks, after every search's head: the final looks of what the Late Window has
	 * passed, the count that settles them, a pass once a pass period has passed (every stretch if
	 * the requests allow it, else the newest), and where passes cannot be whole, one count of each
	 * part of the window once it is old enough. `rows`: what Max Jobs per Poll leaves for looks.
	 */
	async look(rows: number, share = 1): Promise<void> {
		if (!this.watch || this.stopped) return;
		await this.reader.within(rows - this.reader.rows, async () => await this.looks(share));
	}

	private async looks(share: number): Promise<void> {
		const { known, reader, settings } = this;
		const watch = this.watch!;
		const startMs = this.startMs;
		const headBeforeMs = this.headBeforeMs;
		const ties = this.makesTies(headBeforeMs);
		const indexMs = indexNowMs(watch.offsets, startMs);
		// A part the head left for its final look is read whole at it: nothing looks past it before.
		const deferredFromMs = this.deferredFromMs();
		const waiting = () => watch.pending.some((p) => !p.deferred);
		const everyMs = passEveryMs(settings.intervalMs);

		const wholePass = (watch.pass as Pass | undefined)?.finalUpToMs;
		// Everything created up to finalDueMs is past the Late Window; the final looks go no further than the head.
		const finalDueMs = Math.min(indexMs - settings.lateWindowMs, deferredFromMs - 1);
		const target = Math.min(finalDueMs, headBeforeMs);
		// Due once it spans TIES_FINAL_EVERY_MS, reaches a part the head left, or reaches the head
		// (a search gone quiet: nothing would make the span grow).
		const tiesFinalDue = target - watch.floorMs >= TIES_FINAL_EVERY_MS || target === deferredFromMs - 1 || target === headBeforeMs;
		if (ties && !waiting() && target > watch.floorMs && tiesFinalDue) {
			// Where the index makes ties, what the Late Window has passed is read whole once, from the
			// floor: a job posted late in the very millisecond of a known one is in no open stretch,
			// and a count of the part cannot tell it from a job removed there. The read settles it.
			const part = finalReadPart(known, { fromMs: watch.floorMs + 1, toMs: target }, 2 * settings.maxJobsPerPoll - reader.rows);
			const read = await reader.readRange(part, known.activeAt);
			known.absorb(headBeforeMs);
			if (read.complete) settleRead(watch, part);
			else if (read.unread?.toMs !== undefined) watch.pending.push({ ...part, toMs: read.unread.toMs, finalToMs: part.toMs });
			this.passDone = read.complete && part.toMs >= target;
		} else if (!ties && (wholePass === undefined || wholePass === -Infinity) && target > watch.finalMs) {
			// Without a whole pass the final looks keep up by themselves: stretch by stretch while the
			// bucket has requests; once they have waited too long, the oldest part the requests cannot
			// ask is read whole (its rows paid again), and the rest goes on stretch by stretch.
			// This search's share of what the poll can still send: the bucket refills before the next
			// poll's head reads.
			const spare = Math.max(0, Math.ceil(this.budget.remaining() * share) - this.settleReserve(ties));
			const stretches = known.openStretches({ fromMs: watch.finalMs + 1, toMs: target });
			if (stretches.length > spare && finalDueMs - watch.finalMs >= FINAL_LAG_MAX_MS && !reader.interruptedBy) {
				const overflowToMs = stretches[stretches.length - Math.max(1, spare)].fromMs - 1;
				const part = finalReadPart(known, { fromMs: watch.finalMs + 1, toMs: Math.max(watch.finalMs + 1, overflowToMs) }, 2 * settings.maxJobsPerPoll - reader.rows);
				const read = await reader.readRange(part, known.activeAt);
				known.absorb(headBeforeMs);
				if (read.complete) settleRead(watch, part);
				else if (read.unread?.toMs !== undefined) watch.pending.push({ ...part, toMs: read.unread.toMs, finalToMs: part.toMs });
			}
			if (!waiting() && target > watch.finalMs) {
				const done = await this.askStretches({ fromMs: watch.finalMs + 1, toMs: target }, headBeforeMs, {
					limit: Math.max(0, Math.ceil(this.budget.remaining() * share) - this.settleReserve(ties)),
					onAsked: (stretch) => {
						watch.finalMs = stretch.toMs;
					},
				});
				if (done) watch.finalMs = target;
			}
			this.passDone = watch.finalMs >= target;
		}

		// What had its final look is counted once (ties are in no open stretch), then settled: only
		// then are its uids forgotten, so a late tie is always counted before it is forgotten.
		const unsettled = { fromMs: watch.floorMs + 1, toMs: watch.finalMs };
		// Due once it spans an hour; and where nothing new came for an hour (the final looks stand at
		// the head, so the span cannot grow), once its oldest part is an hour past its Late Window.
		const quiet = watch.finalMs >= headBeforeMs && finalDueMs - watch.floorMs >= COUNT_AT_LEAST_EVERY_MS;
		const countDue = !ties && (unsettled.toMs - watch.floorMs >= COUNT_AT_LEAST_EVERY_MS || quiet);
		if (unsettled.toMs >= unsettled.fromMs && countDue && !waiting()) {
			// Settled part by part: where the poll's requests run out (a busy search in a short
			// poll), the parts already counted stay settled and the next poll goes on from there.
			watch.floorMs = Math.max(watch.floorMs, await this.checkedUpTo(unsettled, false, ties));
			if (watch.floorMs < unsettled.toMs) return;
		}

		// A new pass once a pass period has passed: every stretch of the unsettled window if the
		// requests allow it, else as many of the newest as they allow (late jobs are mostly recent).
		if (!watch.pass && startMs - watch.passStartedMs >= everyMs) {
			watch.passStartedMs = startMs;
			const range = { fromMs: watch.finalMs + 1, toMs: headBeforeMs };
			const stretches = known.openStretches(range);
			// Where the index makes ties, no stretch holds a late one: only a read of the whole part is a final look.
			const finalUpToMs = ties ? -Infinity : indexMs - settings.lateWindowMs;
			const affordable = passSupply(this, everyMs, known.openStretches({ fromMs: range.fromMs, toMs: finalUpToMs + everyMs }).length);
			watch.wholePasses = stretches.length <= affordable.whole;
			const fromMs = watch.wholePasses ? range.fromMs : stretches[Math.max(0, stretches.length - affordable.partial)]?.fromMs;
			if (fromMs !== undefined && (watch.wholePasses || affordable.partial > 0)) {
				watch.pass = { startedMs: startMs, fromMs, askedToMs: fromMs - 1, toMs: range.toMs, finalUpToMs: watch.wholePasses ? finalUpToMs : -Infinity };
			}
		}

		// Where requests are too scarce to ask every stretch, each part of the window gets one count
		// once it is old enough that most of its late jobs have shown (YOUNG_CHECK_AGE_MS): it finds
		// them, and jobs posted in the very millisecond of known ones, long before the final look.
		const checkTo = Math.min(headBeforeMs, indexMs - YOUNG_CHECK_AGE_MS, deferredFromMs - 1);
		const checkFrom = Math.max(watch.checkedMs, watch.finalMs) + 1;
		const checkDue =
			checkTo - checkFrom >= YOUNG_CHECK_STEP_MS &&
			(checkTo - checkFrom >= YOUNG_CHECK_LONGEST_STEP_MS || known.activeIn({ fromMs: checkFrom, toMs: checkTo }).length >= YOUNG_CHECK_MIN_JOBS);
		if (!watch.wholePasses && checkDue && this.budget.remaining() > 0) {
			// Done or not, the part had its count: the final look finds what this one did not, and a
			// count that ran out of requests is not paid for again on every poll.
			watch.checkedMs = checkTo;
			if (!(await this.forFreshness(async () => await this.check({ fromMs: checkFrom, toMs: checkTo }, true, ties)))) return;
		}

		// A pass held back far past its period (429s, a small budget) gives way to the final looks above.
		if (watch.pass && startMs - watch.pass.startedMs > 3 * everyMs) delete watch.pass;
		if (watch.pass) {
			const pass: Pass = { ...watch.pass };
			watch.pass = pass;
			// A pass goes up from its oldest stretch and follows the head, so each stretch is asked again
			// about a period after it was last asked, however old (a pass down from the head came back to
			// an old stretch later each time, as the head moved on). Only as far as the requests left
			// for the rest of its period go (not into a bulk import): the next pass plans for the rest.
			const following = { fromMs: Math.max(pass.fromMs, pass.askedToMs + 1), toMs: headBeforeMs };
			const restMs = Math.max(settings.intervalMs, pass.startedMs + everyMs - startMs);
			if (known.openStretches(following).length <= passSupply(this, restMs, 0).whole) pass.toMs = Math.max(pass.toMs, headBeforeMs);
			const left = { fromMs: Math.max(pass.fromMs, pass.askedToMs + 1), toMs: pass.toMs };
			const quota = sweepQuota(pass, known.openStretches(left).length, startMs, startMs - this.lastPollMs, everyMs);
			const givesFinalLooks = pass.finalUpToMs !== -Infinity;
			const done = await this.ahead(ties, async () =>
				await this.askStretches(left, headBeforeMs, {
					limit: quota,
					onAsked: (stretch) => {
						// Asked in order up from the final looks' edge, after the Late Window had passed over it: its final look.
						if (givesFinalLooks && watch.finalMs >= pass.askedToMs) watch.finalMs = Math.max(watch.finalMs, Math.min(stretch.toMs, finalDueMs));
						pass.askedToMs = stretch.toMs;
					},
				}),
			);
			if (done) {
				delete watch.pass;
				this.passDone = true;
				// Late ties are in no stretch: where the index makes them, a count of the young window
				// finds them within a period, as far as the rows saved for it go (the final look, a whole
				// read there, finds them anyway).
				const young = { fromMs: Math.max(pass.fromMs, watch.finalMs + 1), toMs: Math.min(pass.toMs, deferredFromMs - 1) };
				if (ties && young.fromMs <= young.toMs) await this.forFreshness(async () => await this.check(young, false, ties));
			}
		}
	}

	/**
	 * Whether a job of `createdMs` that another search found in this poll may match this search
	 * unseen: this search read its head past that moment before this poll, so its own head read
	 * could not meet the job, and it does not know the uid.
	 */
	mayHaveMissed(uid: string, createdMs: number): boolean {
		return this.headRead && !this.firstPoll && this.headBeforeMs >= createdMs && !this.known.seen.has(uid);
	}

	/** Asks this search for one millisecond: whether the jobs another search found there match it too. */
	async askMillisecond(ms: number): Promise<void> {
		if (this.reader.spent()) return;
		await this.reader.readRange({ fromMs: ms, toMs: ms }, this.known.activeAt);
		this.known.absorb(Infinity);
	}

	/** The search's state after this poll, its uids pruned, and what the poll came to. */
	result(): SearchResult {
		const { known } = this;
		let capped = 0;
		let watch = this.watch;
		if (watch) {
			this.noteTies(watch);
			const pruned = pruneSeen(known.seen, known.gone, watch.floorMs, this.settings.maxSeenUids ?? MAX_SEEN_UIDS);
			capped = pruned.capped;
			const floorMs = pruned.floorMs;
			const finalMs = Math.max(watch.finalMs, floorMs);
			const pending = watch.pending
				.filter((p) => p.toMs > floorMs)
				.map((p) => ({ ...p, fromMs: Math.max(p.fromMs, floorMs + 1) }));
			const pass = watch.pass && { ...watch.pass, fromMs: Math.max(watch.pass.fromMs, finalMs + 1) };
			const spareRows = Math.min(FRESHNESS_ROWS_MAX, watch.spareRows + FRESHNESS_ROWS_PER_JOB * known.fresh.length);
			const hours = Math.max(0, this.startMs - this.lastPollMs) / HOUR_MS;
			const room = this.makesTies(watch.headMs) ? undefined : this.stretchRoom();
			const aheadRows = room
				? Math.min(room.most, watch.aheadRows + room.perHour * hours)
				: Math.min(DEFER_AFTER_ROWS, watch.aheadRows + AHEAD_ROWS_PER_JOB * known.fresh.length + AHEAD_ROWS_PER_HOUR * hours);
			watch = { ...watch, seen: pruned.seen, gone: pruned.gone, floorMs, finalMs, pending, spareRows, aheadRows, ...(pass ? { pass } : {}) };
			if (!pass) delete watch.pass;
		}
		return {
			state: { activatedMs: this.previous.activatedMs, ...(watch ? { watch } : {}) },
			reader: this.reader,
			known,
			headRead: this.headRead,
			firstPoll: this.firstPoll,
			learning: !watch || watch.pending.some((p) => p.learnBeforeMs !== undefined),
			passDone: this.passDone,
			capped,
		};
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
function passSupply(run: SearchRun, everyMs: number, finals: number): { whole: number; partial: number } {
	const { settings, budget, searchCount } = run;
	const polls = Math.max(1, Math.floor(everyMs / settings.intervalMs));
	const earned = polls > 1 ? (settings.requestsPerMinute * budget.share() * everyMs) / MINUTE_MS : 0;
	// Every search of the trigger reads its head at each poll, and the rest is shared between them.
	const total = Math.min(budget.available() + earned, perPollCap(settings) * polls) - searchCount * (polls - 1);
	const supply = (SWEEP_SHARE * total) / searchCount;
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
