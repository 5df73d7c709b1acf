import type { IDataObject } from 'n8n-workflow';

import { MAX_ROWS_PER_CALL } from '../filters';
import { isExactTotal } from '../transport/envelope';

/** Both ends inclusive, in epoch milliseconds; no `toMs` means "up to now". */
export interface TimeRange {
	fromMs: number;
	toMs?: number;
}

/** One search_jobs call: the window (both ends inclusive) and the most rows it may return. */
export interface PageRequest {
	fromMs: number;
	toMs?: number;
	limit: number;
}

export interface Page {
	/** Newest createdAt first (the service's order). */
	jobs: IDataObject[];
	/** Every distinct match in the window, before `limit`. */
	total: number;
	consumedMicrocents: number;
	remainingMicrocents: number;
}

export type FetchPage = (request: PageRequest) => Promise<Page>;

export interface ReadLimits {
	/** A page's size; a function is asked again before each page (the node's Max Credit moves). */
	rowsPerRequest: number | (() => number);
	/** Rows (and so credit) the reader may read in all. */
	maxRows: number;
	/** No request starts at or after this moment (epoch ms). */
	deadlineMs: number;
	now: () => number;
	/** Asked before every request: false stops the read as a spent budget does. It may wait before it answers. */
	admit?: () => Promise<boolean>;
	/** Whether the host answered a uid twice in a page lately: then a page makes room for the jobs at its end twice. */
	repeats?: () => boolean;
	/**
	 * The host may write createdAt in whole seconds while its bounds compare milliseconds (the trigger): where every
	 * createdAt read is whole and no row reached past a toDate, a page that ends on a second reads on to its end.
	 */
	wholeSeconds?: boolean;
	/**
	 * Whether a failure of the very first request is thrown (the default: nothing was paid, the
	 * caller changes nothing). The trigger keeps every failure in `interruptedBy` instead.
	 */
	throwFirstFailure?: boolean;
}

export interface ReadJob {
	job: IDataObject;
	createdMs: number;
}

/**
 * How a range read ended: all of it; or stopped with `unread` left (budget spent or a failure);
 * or `stuck`: a page brought nothing new although the total said more was there (a host that
 * ignores the time bound, or repeats one page): asking again would buy the same rows again.
 */
export interface RangeRead {
	complete: boolean;
	unread?: TimeRange;
	stuck?: boolean;
	/** The uids the read returned inside its range. */
	shown: Set<string>;
	/** The jobs it returned outside its range (a host that rounds the bounds, or writes createdAt coarser than it compares). */
	outside: Map<string, ReadJob>;
	/** Its first page's exact total counted more jobs than the read returned, or (a cut read, where the host rounds) a page came one short of its own: a page may have left one out. */
	short?: boolean;
	/** Its first page's total was a round figure: whether a page left a job out is not known. */
	roundTotal?: boolean;
	/** Its first page's exact total, where the range has an end. */
	total?: number;
	/** It skipped the rest of jobs where a page ended, which the host answered no further (a page cap, or a replica behind); not where a page one short told of a job left out on a host that rounds the bounds. */
	capped?: boolean;
}

export interface CountRead {
	total: number;
	/** False when `total` is a search engine's round figure (see isExactTotal): the window holds at least that many. */
	exact: boolean;
	/** The createdAt of the newest job in the window, where it returned one. */
	newestMs?: number;
}

/** Why a read stopped: its page brought nothing new, so the next page would be the same one, billed again. */
export class TimeBoundIgnored extends Error {
	constructor(
		readonly toMs: number | undefined,
		/** The newest createdAt on the page, when it is past `toMs`. */
		readonly answeredUpToMs?: number,
	) {
		const asked = toMs === undefined ? 'asked for older jobs' : `asked for jobs created up to ${new Date(toMs).toISOString()}`;
		super(
			answeredUpToMs === undefined
				? `the host ignored the time bound of the search (toDate): ${asked}, it answered with no job that was not read already`
				: `the host ignored the time bound of the search (toDate): ${asked}, it answered with jobs created up to ${new Date(answeredUpToMs).toISOString()}`,
		);
		this.name = 'TimeBoundIgnored';
	}
}

/** Newest first, ties by uid descending, as the service orders them (uids are digit strings). */
export function compareNewestFirst(a: ReadJob, b: ReadJob): number {
	if (a.createdMs !== b.createdMs) return b.createdMs - a.createdMs;
	const [ua, ub] = [String(a.job.uid), String(b.job.uid)];
	if (ua.length !== ub.length) return ub.length - ua.length;
	return ua < ub ? 1 : ua > ub ? -1 : 0;
}

const SECOND_MS = 1000;

function createdMsOf(job: IDataObject): number {
	return typeof job.createdAt === 'string' ? Date.parse(job.createdAt) : Number.NaN;
}

/**
 * Reads search_jobs windows newest first under one row and time budget, shared by the trigger
 * and the node's Return All. Paging goes back with `toDate` = the oldest createdAt read so far
 * (inclusive, so jobs sharing that millisecond come back and are dropped by uid).
 *
 * It is as tolerant as a search engine in front of the service needs: a row outside the asked
 * window (a host that rounds the bounds, or writes createdAt coarser than it compares) belongs to
 * no read (`outside` reports it); a uid repeated on a page or across pages is one job; a page
 * shorter than `limit` ends the read only where it holds as many uids as its total (a host that
 * caps its pages is read on), or brings nothing new from inside the window (the host has no more to
 * give: a replica leaving a job out). A read stops early only when any other page brings nothing
 * new.
 */
export class Reader {
	readonly jobs = new Map<string, ReadJob>();
	rows = 0;
	requests = 0;
	consumedMicrocents = 0;
	remainingMicrocents?: number;
	interruptedBy?: Error;
	readonly warnings: string[] = [];
	/** The most a page reached past the `toDate` asked (a host that rounds bounds up): the next page asks that much more. */
	overreachMs = 0;
	/** Rows answered outside the window asked (billed, kept by no read). */
	outsideRows = 0;
	/** Rows that repeated a uid of their page (a join fanning out). */
	repeatedRows = 0;
	/** A createdAt read was not a whole second: the host writes milliseconds. */
	private finerThanSeconds = false;

	private maxRows: number;
	private refused = false;

	constructor(
		private readonly fetchPage: FetchPage,
		private readonly limits: ReadLimits,
	) {
		this.maxRows = limits.maxRows;
	}

	/** Runs `read` with at most `rows` more rows read during it; the rest of the row budget stays for what follows. */
	async within<T>(rows: number, read: () => Promise<T>): Promise<T> {
		const saved = this.maxRows;
		this.maxRows = Math.min(saved, this.rows + Math.max(0, rows));
		try {
			return await read();
		} finally {
			this.maxRows = saved;
		}
	}

	/** After an admission refusal that was only a share running out: later reads of this poll may ask again. */
	resume(): void {
		this.refused = false;
	}

	/** True when no further request may start: budget spent, or a request already failed. */
	spent(): boolean {
		if (this.interruptedBy || this.refused) return true;
		if (this.requests === 0) return false;
		return this.rows >= this.maxRows || this.limits.now() >= this.limits.deadlineMs;
	}

	/**
	 * Reads one window to its end, or until the budget is spent or a page brings nothing new.
	 * `knownIn` counts the jobs the caller knows in a range: a page asks for as many more as it
	 * knows where the last one ended, as they come back first; `roundedToMs` is what the host rounds
	 * the bounds to (0: it does not), for the jobs of this read.
	 */
	async readRange(range: TimeRange, knownIn: (fromMs: number, toMs: number) => number = () => 0, roundedToMs = 0): Promise<RangeRead> {
		const { fromMs } = range;
		const upToMs = (ms: number) => (roundedToMs > 0 ? Math.ceil(ms / roundedToMs) * roundedToMs : ms);
		const shown = new Set<string>();
		const outside = new Map<string, ReadJob>();
		const wholeSeconds = () => this.limits.wholeSeconds === true && !this.finerThanSeconds && this.overreachMs === 0;
		let toMs = range.toMs;
		// Where the last page ended: the jobs from here up to `toMs` (as the host rounds it) come back first; at first, where
		// the range ends on a second's last millisecond (the rest of a read cut short after it asked on to it), that second.
		let atMs = toMs !== undefined && wholeSeconds() && toMs % SECOND_MS === SECOND_MS - 1 ? toMs - (SECOND_MS - 1) : toMs;
		// Matches the last page's total said were left beyond it: the next page asks for no more, so a
		// caller's worst-case credit check is not overstated (a rounded total says only "at least").
		let left = Infinity;
		// The first page's total: a round one says only "at least", so whether a page left a job out is not known.
		let firstTotal: number | 'round' | undefined;
		let capped = false;
		// The most jobs a page with new ones gave where its total said more were left and it asked for more than one more (a
		// replica may leave one out): a page cap.
		let capRows = 0;
		// Where the host rounds the bounds (a rest's total counts its neighbours), a page one row short of what it asked and its
		// total held, and fewer than a page cap gave before it (a cap gives as many every page): a replica left one out, above
		// where a cut read ends (elsewhere the rest's own total tells, search.ts), or where a page with nothing new after it was
		// taken for a page cap (the host answers a minute's rest as the whole minute): that read is not `capped`.
		let leftOut = false;
		// The total counts the host's window: rows it answered outside the range asked (its rounding) count too.
		const short = () => (firstTotal === 'round' ? { roundTotal: true } : new Set([...shown, ...outside.keys()]).size < (firstTotal ?? 0) ? { short: true } : {});
		const cut = () => ({ complete: false, unread: { fromMs, toMs }, shown, outside, ...total(), ...(leftOut ? { short: true } : {}) });
		const total = () => (typeof firstTotal === 'number' && range.toMs !== undefined ? { total: firstTotal } : {});
		const done = () => ({ complete: true, shown, outside, ...total(), ...short(), ...(capped && !leftOut ? { capped } : {}) });
		for (;;) {
			if (this.spent()) return cut();
			const again = atMs === undefined || toMs === undefined ? 0 : Math.max(this.readIn(atMs, Math.max(toMs + this.overreachMs, upToMs(toMs)), shown), knownIn(atMs, upToMs(toMs)));
			if (again >= MAX_ROWS_PER_CALL) {
				// One request returns at most that many: the rest of this millisecond (or second, asked to its end) cannot be asked for.
				const most = MAX_ROWS_PER_CALL.toLocaleString('en-US');
				this.warnings.push(`${most} or more matching jobs share createdAt ${new Date(atMs!).toISOString()}: one request returns at most ${most}, so any beyond them were skipped`);
				toMs = atMs = atMs! - 1;
				continue;
			}
			const perPage = typeof this.limits.rowsPerRequest === 'function' ? this.limits.rowsPerRequest() : this.limits.rowsPerRequest;
			const room = this.limits.repeats?.() ? 2 * again : again;
			const limit = Math.min(MAX_ROWS_PER_CALL, room + Math.max(1, Math.min(perPage, this.maxRows - this.rows, left)));
			// The caller's known jobs where the range ends come back on the first page first: inside the range, they are not new.
			const knownFirst = shown.size === 0 && atMs !== undefined && toMs !== undefined ? knownIn(atMs, toMs) : 0;
			const page = await this.fetch({ fromMs, toMs, limit });
			if (!page) return cut();
			const uids = new Set<string>();
			let fresh = 0;
			let oldestMs = Infinity;
			let newestMs = -Infinity;
			let rows = 0;
			for (const job of page.jobs) {
				const createdMs = createdMsOf(job);
				if (job.uid === undefined || Number.isNaN(createdMs)) {
					this.warnings.push(`Skipped a job without a uid or createdAt: ${JSON.stringify(job).slice(0, 120)}`);
					continue;
				}
				const uid = String(job.uid);
				rows++;
				uids.add(uid);
				newestMs = Math.max(newestMs, createdMs);
				oldestMs = Math.min(oldestMs, createdMs);
				if (createdMs % SECOND_MS !== 0) this.finerThanSeconds = true;
				if (createdMs < fromMs || (toMs !== undefined && createdMs > toMs)) {
					this.outsideRows++;
					outside.set(uid, { job, createdMs });
					continue;
				}
				if (!shown.has(uid)) fresh++;
				shown.add(uid);
				this.jobs.set(uid, { job, createdMs });
			}
			this.repeatedRows += rows - uids.size;
			if (toMs !== undefined && newestMs > toMs) this.overreachMs = Math.max(this.overreachMs, newestMs - toMs);
			const exact = isExactTotal(page.total);
			firstTotal ??= range.toMs === undefined ? 0 : exact ? page.total : 'round';
			if (roundedToMs > 0 && exact && page.jobs.length === Math.min(limit, page.total) - 1 && (capRows === 0 || uids.size < capRows)) leftOut = true;
			// Nothing left: an empty page, a page that reached below the range, or one that held every match of its window (a
			// rounded total is only "at least": there a full page reads on). Where createdAt are whole seconds, a page with new
			// jobs that reached the second the range begins in reads that second on to its end: the host compares its
			// milliseconds, so more of that second's jobs may be in the range beyond the page.
			if (uids.size === 0 || oldestMs < (wholeSeconds() && fresh > 0 ? fromMs - (fromMs % SECOND_MS) : fromMs)) return done();
			if (uids.size >= page.total && (exact || page.jobs.length < limit)) return done();
			// A page that asked past where the last one ended and brought nothing new: that stretch holds more jobs than the host
			// answers in a page, but where it is one row short of what it asked and its total holds, a replica left one out (unless a
			// page of this read gave no more). A host that rounds the bounds (its rows reach past toDate) answers every toDate
			// inside a minute alike, so the rest of the minute is skipped; one that writes whole seconds, the rest of the second
			// (logged). What lies below is read.
			const minuteEndMs = toMs !== undefined && newestMs > toMs ? upToMs(toMs) : toMs;
			const capGave = page.jobs.length !== (exact ? Math.min(limit, page.total) : limit) - 1 || (capRows > 0 && uids.size >= capRows);
			if (fresh === 0 && toMs !== undefined && (minuteEndMs! > toMs || atMs! < toMs) && capGave) {
				const [unit, skipToMs] = minuteEndMs! > toMs ? ['minute', minuteEndMs! - roundedToMs] : ['second', atMs! - 1];
				this.warnings.push(
					`The search answered no new job in the ${unit} from ${new Date(unit === 'minute' ? skipToMs : atMs!).toISOString()} (it holds more than the host answers in a page, or a replica is behind); the rest of that ${unit} was skipped, what lies below it was read`,
				);
				toMs = atMs = skipToMs;
				capped = true;
				if (toMs < fromMs) return done();
				left = Infinity;
				continue;
			}
			// A page of only the millisecond where the last one ended, read already, as many jobs as a page cap gave: they fill
			// the cap, so what lies below is asked for (a replica leaving a job out gives fewer than a page cap does).
			if (fresh === 0 && toMs !== undefined && oldestMs === toMs && newestMs === toMs && toMs > fromMs && capRows > 0 && uids.size >= capRows) {
				toMs = atMs = toMs - 1;
				continue;
			}
			// A page inside the range (as the host rounds it), shorter than asked, with nothing new: the host has no more to give
			// (known jobs the first page made room for are not new: else a poll of one request asks that page again every poll).
			if (fresh <= knownFirst && page.jobs.length < limit && newestMs <= upToMs(toMs ?? Infinity)) {
				const upTo = toMs === undefined ? '' : ` up to ${new Date(toMs).toISOString()}`;
				if (exact) this.warnings.push(`The search counted ${page.total - uids.size} more matching jobs${upTo} than its pages returned (a replica behind?); they were not read`);
				return done();
			}
			if (fresh === 0) {
				this.interruptedBy = new TimeBoundIgnored(toMs, toMs !== undefined && newestMs > toMs ? newestMs : undefined);
				return { complete: false, stuck: true, unread: { fromMs, toMs }, shown, outside, ...short() };
			}
			left = exact ? page.total - uids.size : Infinity;
			if (page.jobs.length < limit - 1 && left > 0) capRows = Math.max(capRows, uids.size);
			atMs = Math.min(oldestMs, toMs ?? Infinity);
			toMs = wholeSeconds() && atMs % SECOND_MS === 0 ? Math.min(atMs + SECOND_MS - 1, toMs ?? Infinity) : atMs;
		}
	}

	/** A `limit: 1` search: the window's match count for at most one billed row. */
	async count(range: Required<TimeRange>): Promise<CountRead | undefined> {
		if (this.spent()) return undefined;
		const page = await this.fetch({ ...range, limit: 1 });
		if (!page) return undefined;
		let newestMs: number | undefined;
		for (const job of page.jobs) {
			const createdMs = createdMsOf(job);
			if (job.uid === undefined || createdMs < range.fromMs || createdMs > range.toMs) continue;
			this.jobs.set(String(job.uid), { job, createdMs });
			newestMs = Math.max(newestMs ?? -Infinity, createdMs);
		}
		return { total: page.total, exact: isExactTotal(page.total), ...(newestMs === undefined ? {} : { newestMs }) };
	}

	private async fetch(request: PageRequest): Promise<Page | undefined> {
		if (this.limits.admit && !(await this.limits.admit())) {
			this.refused = true;
			return undefined;
		}
		const page = await this.fetchPage(request).catch((error: Error) => error);
		if (page instanceof Error) {
			if (this.requests === 0 && this.limits.throwFirstFailure !== false) throw page;
			this.interruptedBy = page;
			return undefined;
		}
		this.requests++;
		this.rows += page.jobs.length;
		this.consumedMicrocents += page.consumedMicrocents;
		this.remainingMicrocents = page.remainingMicrocents;
		return page;
	}

	/** How many of this read's jobs stand in [fromMs, toMs]. */
	private readIn(fromMs: number, toMs: number, shown: Set<string>): number {
		let count = 0;
		for (const uid of shown) {
			const ms = this.jobs.get(uid)!.createdMs;
			if (ms >= fromMs && ms <= toMs) count++;
		}
		return count;
	}
}
