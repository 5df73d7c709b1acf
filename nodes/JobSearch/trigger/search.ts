import { MAX_ROWS_PER_CALL } from '../filters';
import { Reader, type Page, type PageRequest, type RangeRead, type TimeRange } from '../paging/reader';
import { indexClockMs, withSample } from './clock';
import { Known, forget } from './known';
import type { RequestBudget } from './requests';
import { cloneWatch, waiting, type HostTrait, type Part, type Range, type SearchState } from './state';
import type { CycleDeps, CycleSettings, SearchResult } from './types';
import { ACTIVATION_READ_GRACE_MS, CHANCE_TIES_WHOLE, COUNT_EVERY_MS, COUNT_MIN_KNOWN, FINAL_LAG_MAX_MS, HOUR_MS, LOOK_STEP_MS, INDEX_CLOCK_DOUBT_MS, MAX_SEEN_UIDS, MEMORY_MS, MINUTE_MS, PASSING_RETRIES, POLL_TIME_SHARE, ROWS_PER_REQUEST, YOUNG_LOOK_AGES_MS } from './tunables';

/** One search's reading in one poll (DESIGN.md), on the poll's one request budget; no n8n inside, so every rule is tested alone. */
export class SearchRun {
	readonly reader: Reader;
	private known?: Known;
	private watch = this.previous.watch && cloneWatch(this.previous.watch);
	private firstPageMs?: number;
	/** The next request goes with the other searches' (their heads meet the index at one moment). */
	private burst = false;
	/** The requests this search's looks may still send in this poll. */
	private quota = Infinity;
	private readonly cheap = this.settings.delivery === 'lowestCost';
	/** Its activation read has not begun: it goes with the other searches' (cycle.ts), and reads the Late Window for the first time. */
	readonly activating = !this.previous.watch;
	/** Emit on First Poll is for the trigger's first activation: not a dropped state's, nor a search's added later (a job another search sent over a day ago is no longer known to it). */
	private readonly lookbackMs = this.previous.droppedMs === undefined && !this.previous.added ? this.settings.firstPollLookbackMs : undefined;

	constructor(
		readonly key: string,
		private readonly previous: SearchState,
		private readonly settings: CycleSettings,
		private readonly deps: CycleDeps,
		private readonly budget: RequestBudget,
		private readonly knownElsewhere: (uid: string) => boolean,
	) {
		this.reader = new Reader(async (request) => await this.fetch(request), {
			rowsPerRequest: ROWS_PER_REQUEST,
			maxRows: this.watch ? 2 * settings.maxJobsPerPoll : this.lookbackMs !== undefined ? settings.maxJobsPerPoll : MAX_ROWS_PER_CALL,
			deadlineMs: deps.now() + settings.pollTimeMs * POLL_TIME_SHARE,
			now: deps.now,
			admit: async () => {
				if (this.reader.requests >= this.quota) return false;
				const burst = this.burst;
				this.burst = false;
				return await this.budget.take(burst);
			},
			throwFirstFailure: false,
			repeats: () => this.lately('repeats'),
			wholeSeconds: true,
		});
		if (!this.watch) return;
		// A day-old sample of the index's clock may tell of a lead n8n's clock has since stepped past.
		this.watch.offsets = this.watch.offsets.filter((o) => o.atMs > deps.now() - MEMORY_MS);
		this.known = new Known(this.watch, this.reader, knownElsewhere);
	}

	/** The looks that follow may send this share of the requests the poll has left (at least one). */
	private share(share: number): void {
		this.reader.resume();
		this.quota = this.reader.requests + Math.max(1, Math.floor(this.budget.remaining() * share));
	}

	/** One request; a 429 is waited out and a passing fault asked again, each time a request of the budget: a retry is never free. */
	private async fetch(request: PageRequest): Promise<Page> {
		let retries = 0;
		for (;;) {
			const answer = await this.deps.fetchPage(request).then((page) => ({ page }), (error: Error) => ({ error }));
			if ('page' in answer) {
				this.firstPageMs ??= this.deps.now();
				return answer.page;
			}
			const meaning = this.deps.classify(answer.error);
			if (meaning.kind === 'rate-limited') this.budget.rateLimited(meaning.retryAfterMs);
			const again = meaning.kind === 'rate-limited' || (meaning.kind === 'passing' && retries++ < PASSING_RETRIES);
			if (!again || !(await this.budget.take())) throw answer.error;
		}
	}

	private indexNowMs = (): number => indexClockMs(this.watch?.offsets ?? [], this.deps.now());

	/** Whether the host did this in the last day; `rounds`: it answered rows outside the range asked (DESIGN.md, assumption 6). */
	private lately = (trait: HostTrait): boolean => (this.watch?.lastSeenMs[trait] ?? 0) > this.deps.now() - MEMORY_MS;

	/** `toMs`, or where the host rounds the bounds a whole minute (the first past `fromMs`, at least): it would answer the rest of a split minute first. */
	private partEnd(fromMs: number, toMs: number): number {
		if (!this.lately('rounds')) return toMs;
		return Math.min(toMs, Math.max(Math.floor(toMs / MINUTE_MS) * MINUTE_MS, Math.ceil((fromMs + 1) / MINUTE_MS) * MINUTE_MS));
	}

	/** Whether a look that waits for LOOK_STEP_MS has waited it; where polls come that far apart or more, half of it (a poll may start a few ms early). */
	private stepped = (elapsedMs: number): boolean => elapsedMs >= (this.settings.intervalMs >= LOOK_STEP_MS ? LOOK_STEP_MS / 2 : LOOK_STEP_MS);

	/** Whether final looks read whole: late ties hide in known milliseconds, or the host rounds the bounds. */
	private coarse(): boolean {
		return this.lately('ties') || this.lately('rounds') || this.known!.wholeOf(1000) || this.known!.chanceTies(this.watch!.floorMs) >= CHANCE_TIES_WHOLE;
	}

	/** Reads a range and takes in its jobs. A read the host keeps answering with the same rows is reported and taken as done. */
	private async read(range: TimeRange, lateBeforeMs: number, learnBeforeMs?: number): Promise<RangeRead> {
		const roundsBefore = this.lately('rounds');
		const read = await this.reader.readRange(range, this.known!.at, roundsBefore ? MINUTE_MS : 0);
		this.known!.absorb(read, lateBeforeMs, learnBeforeMs);
		const nowMs = this.deps.now();
		if (this.known!.tiesFound) this.watch!.lastSeenMs.ties = nowMs;
		if (this.reader.outsideRows > 0) this.watch!.lastSeenMs.rounds = nowMs;
		if (this.reader.repeatedRows > 0) this.watch!.lastSeenMs.repeats = nowMs;
		if (read.stuck) this.skipStuck();
		// A skipped read short of its total is read again, but where the host was seen rounding before it (the same minute again).
		return read.stuck ? { ...read, complete: true, short: read.short === true && !roundsBefore } : read;
	}

	/** A read the host answers with the same rows is no failed poll: the log says so, and the newest jobs are still read. */
	private skipStuck(): void {
		this.reader.warnings.push(`${this.reader.interruptedBy!.message}; that part is skipped so the newest jobs are still sent`);
		this.reader.interruptedBy = undefined;
	}

	/** A range read whole: its known uids it did not return are gone. */
	private async readWhole(range: Range, learnBeforeMs?: number): Promise<RangeRead> {
		const read = await this.read(range, Infinity, learnBeforeMs);
		if (read.complete && !read.stuck) this.known!.markGone(range, read);
		return read;
	}

	/** A part read whole as far as the poll allows; its unread rest waits as a pending part, so the next poll goes on, not over. */
	private async readPart(range: Range): Promise<RangeRead | undefined> {
		const read = await this.readWhole(range);
		const restToMs = read.unread?.toMs;
		if (read.complete || restToMs === undefined || restToMs >= range.toMs) return read.complete ? read : undefined;
		this.watch!.pending.push(this.restOf(read, range, restToMs));
		return read;
	}

	/** A cut final look's or count's rest, read again where it reads short; `owed`: the jobs its first, exact total left for it (a rest counting fewer: a page above left one out), not on a host that rounds the bounds, whose totals count rows outside the range. */
	private restOf(read: RangeRead, range: Range, toMs: number): Part {
		const rest = { fromMs: range.fromMs, toMs, aboveToMs: range.toMs };
		if (this.lately('rounds') || read.total === undefined) return rest;
		const above = [...read.shown].filter((uid) => this.reader.jobs.get(uid)!.createdMs > toMs).length;
		return { ...rest, owed: read.total - above };
	}

	/** New jobs first, within Max Jobs per Poll: the activation read, or the head and the pending parts (`partsFirst` where one request is left). */
	async readNew(rows: number, partsFirst = false): Promise<void> {
		if (!this.watch) return await this.activate();
		const endRows = this.reader.rows + rows;
		if (partsFirst && this.budget.remaining() <= 1) await this.reader.within(rows, async () => await this.readPending());
		const outsideBefore = this.reader.outsideRows;
		if (!this.cheap) await this.reader.within(endRows - this.reader.rows, async () => await this.readHead());
		// Rows outside the range asked (a host that rounds the bounds) are no new jobs: a head read that buys one every poll
		// would otherwise take the rows of Max Jobs per Poll 1 for good, and the parts behind it would never be read.
		const outside = this.reader.outsideRows - outsideBefore;
		await this.reader.within(endRows + outside - this.reader.rows, async () => await this.readPending());
	}

	private async readHead(): Promise<void> {
		const headBeforeMs = this.watch!.headMs;
		this.burst = true;
		const read = await this.read({ fromMs: headBeforeMs + 1 }, headBeforeMs);
		this.burst = false;
		this.takeHead(read, headBeforeMs + 1);
	}

	/** The newest createdAt read becomes the head (and a sample of the index's clock); the unread rest of the read waits as a pending part. */
	private takeHead(read: RangeRead, fromMs: number, learnBeforeMs?: number): void {
		const watch = this.watch!;
		const newestMs = Math.max(...[...read.shown].map((uid) => this.reader.jobs.get(uid)!.createdMs));
		watch.headMs = Math.max(watch.headMs, newestMs);
		watch.offsets = withSample(watch.offsets, newestMs, this.deps.now());
		if (read.complete || read.stuck || read.unread?.toMs === undefined) return;
		watch.pending.push({ fromMs, toMs: read.unread.toMs, ...(learnBeforeMs === undefined ? {} : { learnBeforeMs }) });
	}

	/** Lowest Cost reads no head: a one-row look for a job newer than the clock it believes keeps that clock, every LOOK_STEP_MS. */
	private async probeClock(): Promise<void> {
		const nowMs = this.deps.now();
		const watch = this.watch!;
		if (!this.stepped(nowMs - watch.clockLookMs)) return;
		const toMs = nowMs + INDEX_CLOCK_DOUBT_MS;
		// Only a job newer than the clock it will still believe in an hour tells more (a quiet search's look is mostly empty,
		// and free; a day-old sample has a successor before it is forgotten). With none, the newest job.
		const lasting = watch.offsets.filter((o) => o.atMs > nowMs - MEMORY_MS + HOUR_MS);
		const fromMs = lasting.length > 0 ? Math.min(toMs, indexClockMs(lasting, nowMs) + 1) : watch.finalMs + 1;
		this.burst = true;
		const count = await this.reader.count({ fromMs, toMs });
		this.burst = false;
		if (!count) return;
		watch.clockLookMs = nowMs;
		watch.offsets = withSample(watch.offsets, count.newestMs ?? -Infinity, this.deps.now());
	}

	/** The activation read learns the Late Window; if its first page came late, what was posted since (and the index's delay before) is sent. */
	private async activate(): Promise<void> {
		const nowMs = this.deps.now();
		// The index's usual delay before the activation: a job created since then may be shown after it.
		const sinceMs = this.previous.activatedMs - INDEX_CLOCK_DOUBT_MS;
		// A job shown since the activation may be posted a Late Window before it (n8n 2.41 may have activated it a day ago).
		const finalMs = this.indexNowMs() - this.settings.lateWindowMs;
		const windowFromMs = Math.min(finalMs, sinceMs - this.settings.lateWindowMs);
		const { droppedMs } = this.previous;
		const fromMs = this.lookbackMs === undefined ? windowFromMs : Math.min(windowFromMs, nowMs - this.lookbackMs);
		this.burst = true;
		const read = await this.reader.readRange({ fromMs });
		if (this.firstPageMs === undefined) return;
		// What a dropped state may have sent (anything shown before it was dropped) is learned: never twice wins over never lost.
		const learnedMs = droppedMs === undefined ? -Infinity : droppedMs + INDEX_CLOCK_DOUBT_MS;
		let learnBeforeMs = Math.max(learnedMs, this.firstPageMs - this.previous.activatedMs > ACTIVATION_READ_GRACE_MS ? sinceMs : Infinity);
		if (this.lookbackMs !== undefined) learnBeforeMs = Math.min(learnBeforeMs, nowMs - this.lookbackMs);
		this.watch = {
			headMs: fromMs - 1,
			// What the Late Window has passed over is read here whole: final already.
			finalMs: finalMs - 1,
			floorMs: finalMs - 1,
			youngMs: YOUNG_LOOK_AGES_MS.map(() => finalMs - 1),
			seen: new Map(),
			gone: new Set(),
			learned: new Set(),
			pending: [],
			lastSeenMs: { ties: 0, rounds: 0, repeats: 0, overcounts: 0 },
			offsets: [],
			clockLookMs: 0,
		};
		this.known = new Known(this.watch, this.reader, this.knownElsewhere);
		this.known.absorb(read, -Infinity, learnBeforeMs);
		// The rest follows next poll: jobs of the index's delay before activation may show by then, and are sent.
		this.takeHead(read, fromMs, Math.max(learnedMs, Math.min(learnBeforeMs, sinceMs)));
		if (read.stuck) this.skipStuck();
	}

	/** The reads that keep nothing lost, with this search's share of the requests: the settling count, then the final look. */
	async finalLooks(share: number): Promise<void> {
		if (!this.watch || this.activating) return;
		this.share(share);
		// The count goes first: after final looks that take every request, the uid cap would forget unsettled jobs.
		await this.settle();
		await this.finalLook();
		// Lowest Cost's look at the index's clock goes last: where requests are scarce, it must not take the final looks'.
		if (this.cheap) await this.probeClock();
	}

	/** A final look or count lagging FINAL_LAG_MAX_MS past its time takes a request before the `heads` (which could take them all); where it leaves them too few, the final look reads all that is due. */
	async overdueLook(heads: number): Promise<void> {
		const watch = this.watch;
		if (!watch || this.cheap) return;
		const overdueMs = this.indexNowMs() - this.settings.lateWindowMs - FINAL_LAG_MAX_MS - this.settings.intervalMs;
		const leavesTheHeadsTooFew = this.budget.remaining() <= heads;
		this.share(0);
		if (overdueMs - COUNT_EVERY_MS > watch.floorMs) await this.settle();
		if (overdueMs > watch.finalMs) await this.finalLook(leavesTheHeadsTooFew || undefined);
		this.reader.resume();
		this.quota = Infinity;
	}

	/** The parts left to read whole, in the order they were left. */
	private async readPending(): Promise<void> {
		const watch = this.watch!;
		for (const part of [...watch.pending]) {
			if (this.reader.spent()) return;
			if (waiting(part, this.deps.now())) continue;
			const read = await this.readWhole(part, part.learnBeforeMs);
			// Read again an hour later and short again: the host's total counts more than it answers (a cut read's page one short may be a cap).
			if (part.afterMs !== undefined && read.complete && read.short && !read.stuck) watch.lastSeenMs.overcounts = this.deps.now();
			// A cut read's rest: above it, the rest's total counting fewer than its read left for it; in it, as a final look's.
			if (read.total !== undefined && read.total < (part.owed ?? -Infinity)) this.readAgain({ ...part, fromMs: part.toMs + 1, toMs: part.aboveToMs! });
			if (part.aboveToMs !== undefined) this.readAgain(part, read);
			if (read.complete) watch.pending.splice(watch.pending.indexOf(part), 1);
			else if (read.unread?.toMs !== undefined && read.unread.toMs < part.toMs) {
				// A final look's or count's rest goes on as one (a head's or the activation's rest has its final look to come).
				Object.assign(part, part.aboveToMs === undefined ? { toMs: read.unread.toMs } : { owed: undefined, aboveToMs: undefined, ...this.restOf(read, part, read.unread.toMs) });
			}
		}
	}

	/** Each part once the Late Window passed it: every open stretch asked, or read whole where stretches cannot see every job (DESIGN.md). */
	private async finalLook(whole = this.cheap || this.coarse()): Promise<void> {
		const watch = this.watch!;
		const known = this.known!;
		const dueMs = this.indexNowMs() - this.settings.lateWindowMs;
		let endMs = this.lately('rounds') ? Math.floor(dueMs / MINUTE_MS) * MINUTE_MS : dueMs;
		for (const part of watch.pending) if (part.toMs > watch.finalMs && !waiting(part, this.deps.now())) endMs = Math.min(endMs, part.fromMs - 1);
		// Lowest Cost reads a job once whatever the step, but where a rounding host buys each read's first minute again.
		if (this.cheap && !(this.lately('rounds') && known.wholeOf(MINUTE_MS)) ? endMs <= watch.finalMs : !this.stepped(endMs - watch.finalMs)) return;
		while (watch.finalMs < endMs && !this.reader.spent()) {
			const lagging = dueMs - watch.finalMs > FINAL_LAG_MAX_MS + this.settings.intervalMs;
			if (whole || lagging) {
				const toMs = this.partEnd(watch.finalMs, whole ? endMs : Math.min(endMs, dueMs - FINAL_LAG_MAX_MS - this.settings.intervalMs));
				const read = await this.readPart({ fromMs: watch.finalMs + 1, toMs });
				if (!read) return;
				this.readAgain({ fromMs: watch.finalMs + 1, toMs }, read);
				// Where its total counted a job no page returned or was a round figure, or a page brought nothing new (skipped), the part waits for its count too.
				if (watch.floorMs === watch.finalMs && read.complete && !read.stuck && !read.short && !read.roundTotal) watch.floorMs = toMs;
				watch.finalMs = toMs;
				continue;
			}
			const passFromMs = watch.finalMs + 1;
			const stretches = known.openStretches({ fromMs: passFromMs, toMs: endMs }, watch.pending);
			try {
				for (const [i, stretch] of stretches.entries()) {
					const read = await this.read(stretch, Infinity);
					if (!read.complete) return;
					this.readAgain(stretch, read);
					watch.finalMs = i + 1 < stretches.length ? stretches[i + 1].fromMs - 1 : endMs;
				}
				watch.finalMs = endMs;
			} finally {
				// Where the pass moved `final` past known milliseconds (wholeAfterStretches); a poll that moved nothing changes nothing.
				if (watch.finalMs >= passFromMs) watch.stretchedFromMs ??= passFromMs;
			}
		}
		if (this.cheap) watch.headMs = Math.max(watch.headMs, watch.finalMs);
	}

	/** Before each count: where final looks turn whole after asking open stretches, what those passed over above the floor is read whole once (a late job in a known millisecond, which a removal may hide from the count). */
	private wholeAfterStretches(): void {
		const watch = this.watch!;
		if (watch.stretchedFromMs === undefined || !this.coarse()) return;
		const fromMs = Math.max(watch.floorMs + 1, watch.stretchedFromMs);
		if (fromMs <= watch.finalMs) watch.pending.push({ fromMs, toMs: watch.finalMs });
		delete watch.stretchedFromMs;
	}

	/** Read again next poll and once a job left out must show (assumption 3): a look's or count's `read` that left out a job its total counted, but where a page skipped a minute's or second's rest (`capped`); not lately where a part read again came short again. */
	private readAgain({ fromMs, toMs }: Range, read?: RangeRead): void {
		if (read && !(read.short && !read.capped)) return;
		if (!this.lately('overcounts')) this.watch!.pending.push({ fromMs, toMs }, { fromMs, toMs, afterMs: this.deps.now() + HOUR_MS });
	}

	/** Counts what had its final look, hourly once it holds enough jobs: more than known means one shown late in a known millisecond. */
	private async settle(): Promise<void> {
		const watch = this.watch!;
		while (watch.floorMs < watch.finalMs && !this.reader.spent()) {
			this.wholeAfterStretches();
			const ageMs = this.indexNowMs() - this.settings.lateWindowMs - watch.floorMs;
			if (watch.finalMs - watch.floorMs < COUNT_EVERY_MS && ageMs < COUNT_EVERY_MS) return;
			// A count pays a row: a quiet search's waits for enough jobs to make that row a small share, a day at most.
			if (ageMs < MEMORY_MS && this.known!.activeIn({ fromMs: watch.floorMs + 1, toMs: watch.finalMs }) < COUNT_MIN_KNOWN) return;
			// A part still unread is counted once it is read (a known job gone from it would hide a late one from the count).
			const endMs = Math.min(watch.finalMs, ...watch.pending.filter((p) => p.toMs > watch.floorMs).map((p) => p.fromMs - 1));
			if (endMs <= watch.floorMs) return;
			// In parts the host counts exactly (a round total says only "at least", and is read whole).
			const part = { fromMs: watch.floorMs + 1, toMs: this.partEnd(watch.floorMs, this.known!.exactCountEnd(watch.floorMs, endMs)) };
			const count = await this.reader.count(part);
			if (!count) return;
			// What the poll cannot read of a part that holds more than known waits as a pending part (a count asked again at
			// every poll could take every request a small budget leaves), and is read again as a short one: a replica may leave it out.
			if (!count.exact || count.total > this.known!.activeIn(part)) {
				const read = await this.readPart(part);
				if (read) this.readAgain(part, read);
				else watch.pending.push(part, ...(this.lately('overcounts') ? [] : [{ ...part, afterMs: this.deps.now() + HOUR_MS }]));
			}
			watch.floorMs = part.toMs;
		}
	}

	/** Freshness with the requests left: stretches asked again at each young age; not where the host rounds (a stretch would buy its neighbours). */
	async youngLooks(share: number): Promise<void> {
		const watch = this.watch;
		if (!watch || this.activating || this.cheap || this.lately('rounds')) return;
		this.share(share);
		const indexNowMs = this.indexNowMs();
		for (const [k, ageMs] of YOUNG_LOOK_AGES_MS.entries()) {
			// What is older than the next age gets that look: a look that fell behind skips ahead.
			const skipToMs = indexNowMs - (YOUNG_LOOK_AGES_MS[k + 1] ?? this.settings.lateWindowMs);
			const fromMs = Math.max(watch.youngMs[k], watch.finalMs, skipToMs) + 1;
			// Its step is measured to where the look is due, not to the head: a quiet search's head stands still for hours.
			if (!this.stepped(indexNowMs - ageMs - fromMs) || watch.headMs < fromMs) continue;
			const toMs = Math.min(watch.headMs, indexNowMs - ageMs);
			for (const stretch of this.known!.openStretches({ fromMs, toMs }, watch.pending)) {
				if (this.reader.spent()) return;
				const read = await this.read(stretch, Infinity);
				if (!read.complete) return;
				// A job a page left out of it may stand in a known job's millisecond, where the final look asks no stretch.
				this.readAgain(stretch, read);
				watch.youngMs[k] = stretch.toMs;
			}
			watch.youngMs[k] = Math.max(watch.youngMs[k], toMs);
		}
	}

	/** `keepFromMs`: no uid at or above it is forgotten but by the cap (another search may not have read so far). */
	result(keepFromMs: number): SearchResult {
		const capped = this.watch ? forget(this.watch, this.settings.maxSeenUids ?? MAX_SEEN_UIDS, keepFromMs) : 0;
		return {
			state: this.watch ? { activatedMs: this.previous.activatedMs, watch: this.watch } : this.previous,
			reader: this.reader,
			fresh: this.known?.fresh ?? [],
			came: this.firstPageMs !== undefined,
			firstPoll: this.activating,
			learning: this.watch?.pending.some((p) => p.learnBeforeMs !== undefined) ?? false,
			late: this.known?.late ?? 0,
			reposts: this.known?.reposts ?? 0,
			capped,
		};
	}

	learnSentElsewhere = (uid: string, createdMs: number): void => this.known?.learnSentElsewhere(uid, createdMs);
}
