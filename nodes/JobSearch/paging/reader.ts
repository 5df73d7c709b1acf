import type { IDataObject } from 'n8n-workflow';

import { MAX_ROWS_PER_CALL } from '../filters';

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
	/** Newest createdAt first, ties by uid descending (the service's order). */
	jobs: IDataObject[];
	/** Every match in the window, before `limit`. */
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
	/**
	 * Asked before every request: false stops the read as a spent budget does (the trigger's
	 * request budget and rate window). It may wait before it answers.
	 */
	admit?: () => Promise<boolean>;
	/**
	 * Whether a failure of the very first request is thrown (the default: nothing was paid, the
	 * caller changes nothing). The trigger keeps every failure in `interruptedBy` instead and
	 * decides itself what a failure means.
	 */
	throwFirstFailure?: boolean;
}

export interface ReadJob {
	job: IDataObject;
	createdMs: number;
}

/** How a range read ended: all of it, or stopped with `unread` left (budget spent or a failure). */
export interface RangeRead {
	complete: boolean;
	unread?: TimeRange;
}

export interface CountRead {
	total: number;
	/** False when `total` is a search engine's round figure (see isExactTotal): the window holds at least that many. */
	exact: boolean;
}

/**
 * Whether a `total` is a count rather than a rounded figure. Search engines report large counts
 * rounded down to a thousand (and capped): a total of 1,000 or more that is a whole number of
 * thousands may stand for more, so it is only a lower bound. A count that happens to be exactly
 * 2,000 is treated the same way, which costs at most one more request.
 */
export function isExactTotal(total: number): boolean {
	return total < 1_000 || total % 1_000 !== 0;
}

/**
 * Why a read stopped on a host that ignores `toDate`: paging back would buy the same newest jobs
 * again and again, each time billed, until the credit ran out. Kept in `interruptedBy`.
 */
export class TimeBoundIgnored extends Error {
	constructor(
		readonly toMs: number,
		/** The newest createdAt on the page, when it is past `toMs`. */
		readonly answeredUpToMs?: number,
	) {
		const asked = `asked for jobs created up to ${new Date(toMs).toISOString()}`;
		super(
			answeredUpToMs === undefined
				? `the host ignored the time bound of the search (toDate): ${asked}, it answered with no job that was not read already`
				: `the host ignored the time bound of the search (toDate): ${asked}, it answered with jobs created up to ${new Date(answeredUpToMs).toISOString()}`,
		);
		this.name = 'TimeBoundIgnored';
	}
}

/** How many jobs created in exactly this millisecond are already known to the caller. */
export type KnownAt = (ms: number) => number;

/** Newest first, ties by uid descending, as the service orders them (uids are digit strings). */
export function compareNewestFirst(a: ReadJob, b: ReadJob): number {
	if (a.createdMs !== b.createdMs) return b.createdMs - a.createdMs;
	const [ua, ub] = [String(a.job.uid), String(b.job.uid)];
	if (ua.length !== ub.length) return ub.length - ua.length;
	return ua < ub ? 1 : ua > ub ? -1 : 0;
}

function createdMsOf(job: IDataObject): number {
	return typeof job.createdAt === 'string' ? Date.parse(job.createdAt) : Number.NaN;
}

/** The newest createdAt among `jobs` (-Infinity when none has one). */
function newestMsOf(jobs: readonly IDataObject[]): number {
	let newest = Number.NEGATIVE_INFINITY;
	for (const job of jobs) {
		const ms = createdMsOf(job);
		if (ms > newest) newest = ms;
	}
	return newest;
}

/**
 * Reads search_jobs windows newest first under one row and time budget, shared by the trigger's
 * polls and the node's Return All. Paging goes back with `toDate` = the oldest createdAt of a full
 * page. That boundary is inclusive, so jobs sharing its millisecond are read again rather than
 * skipped and dropped here by uid; each page asks for a page's worth of rows beyond the jobs
 * already known at its boundary, so every page gets further back. Every job is kept once, by uid,
 * with no second copy of any page.
 *
 * Failures: the very first request's error is thrown (nothing was paid, the caller changes
 * nothing). A later one stops the read like a spent budget, says what is left unread, and is kept
 * in `interruptedBy`: the rows read are paid for and must not be dropped. So does a page with a
 * job newer than its `toDate`, or one that adds no job to its read (`TimeBoundIgnored`): such a
 * host would sell the same page again on every further request.
 */
export class Reader {
	readonly jobs = new Map<string, ReadJob>();
	rows = 0;
	requests = 0;
	consumedMicrocents = 0;
	remainingMicrocents?: number;
	interruptedBy?: Error;
	readonly warnings: string[] = [];

	private maxRows: number;
	/** The admission hook said no: nothing more is asked in this read. */
	private refused = false;

	constructor(
		private readonly fetchPage: FetchPage,
		private readonly limits: ReadLimits,
	) {
		this.maxRows = limits.maxRows;
	}

	/** Lets `rows` more be read from here, even past the row budget (a check that must be able to finish). */
	allowAtLeast(rows: number): void {
		this.maxRows = Math.max(this.maxRows, this.rows + rows);
	}

	/**
	 * Runs `read` with at most `rows` more rows read during it: the rest of the row budget stays
	 * for what comes after (the trigger's late-job looks after its head read).
	 */
	async within<T>(rows: number, read: () => Promise<T>): Promise<T> {
		const saved = this.maxRows;
		this.maxRows = Math.min(saved, this.rows + rows);
		try {
			return await read();
		} finally {
			this.maxRows = saved;
		}
	}

	/** True when no further request may start: budget spent, or a request already failed. */
	spent(): boolean {
		if (this.interruptedBy || this.refused) return true;
		if (this.requests === 0) return false;
		return this.rows >= this.maxRows || this.limits.now() >= this.limits.deadlineMs;
	}

	/**
	 * Reads one window to its end, or until the budget is spent. Each page's `total` counts its own
	 * window (everything up to its `toDate`), so a page that holds its whole total ends the read and
	 * the last page is never an empty one; a job that appears in the unread part mid-read raises the
	 * next page's total and is read too. `shown` (pass an empty set) collects the uids the read
	 * returned; `pageRows` overrides the page size for a read whose size is known (rows are billed
	 * one by one, so one big page costs what small ones do).
	 */
	async readRange(range: TimeRange, knownAt: KnownAt = () => 0, shown = new Set<string>(), pageRows?: number): Promise<RangeRead> {
		const { fromMs } = range;
		let toMs = range.toMs;
		// Matches of the window the last page did not hold (older than its oldest job, or tied with
		// it), as its total said: what the next page must hold beyond the known boundary jobs.
		let unread = Number.POSITIVE_INFINITY;
		while (toMs === undefined || toMs >= fromMs) {
			if (this.spent()) return { complete: false, unread: { fromMs, toMs } };
			const known = toMs === undefined ? 0 : Math.max(this.readAt(toMs), knownAt(toMs));
			if (known >= MAX_ROWS_PER_CALL) {
				this.warnings.push(
					`${MAX_ROWS_PER_CALL.toLocaleString('en-US')} or more matching jobs share createdAt ${new Date(toMs!).toISOString()}: one request returns at most ${MAX_ROWS_PER_CALL.toLocaleString('en-US')}, so any beyond them were skipped`,
				);
				toMs = toMs! - 1;
				continue;
			}
			// The jobs already read at the boundary come back first: ask for a page beyond them, and
			// no more than the window has left, so a caller's worst-case credit check is not overstated.
			const { rowsPerRequest } = this.limits;
			const perPage = pageRows ?? (typeof rowsPerRequest === 'function' ? rowsPerRequest() : rowsPerRequest);
			const budgeted = Math.max(1, Math.min(perPage, this.maxRows - this.rows, unread));
			const limit = Math.min(MAX_ROWS_PER_CALL, known + budgeted);
			const page = await this.fetch({ fromMs, toMs, limit });
			if (!page) return { complete: false, unread: { fromMs, toMs } };
			const shownBefore = shown.size;
			const oldestMs = this.collect(page.jobs, shown);
			const newestMs = newestMsOf(page.jobs);
			if (toMs !== undefined && newestMs > toMs) return this.stopOn(new TimeBoundIgnored(toMs, newestMs), { fromMs, toMs });
			const exact = isExactTotal(page.total);
			if ((exact && page.jobs.length >= page.total) || page.jobs.length < limit || oldestMs === undefined) return { complete: true };
			// More were due, yet every job came back already read: the next page would be this one.
			if (toMs !== undefined && shown.size === shownBefore) return this.stopOn(new TimeBoundIgnored(toMs), { fromMs, toMs });
			// A rounded total only says "at least": it may not size the next page down.
			unread = exact ? page.total - page.jobs.length : Number.POSITIVE_INFINITY;
			toMs = oldestMs;
		}
		return { complete: true };
	}

	/** A `limit: 1` search: the window's match count for at most one billed row. */
	async count(range: TimeRange): Promise<CountRead | undefined> {
		if (this.spent()) return undefined;
		const page = await this.fetch({ ...range, limit: 1 });
		if (!page) return undefined;
		this.collect(page.jobs, new Set());
		return { total: page.total, exact: isExactTotal(page.total) };
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

	private stopOn(reason: TimeBoundIgnored, unread: TimeRange): RangeRead {
		this.interruptedBy = reason;
		return { complete: false, unread };
	}

	private readAt(ms: number): number {
		let count = 0;
		for (const { createdMs } of this.jobs.values()) if (createdMs === ms) count++;
		return count;
	}

	/** Adds a page's jobs; returns the oldest createdAt on the page. */
	private collect(jobs: readonly IDataObject[], shown: Set<string>): number | undefined {
		let oldestMs: number | undefined;
		for (const job of jobs) {
			const createdMs = createdMsOf(job);
			if (job.uid === undefined || Number.isNaN(createdMs)) {
				this.warnings.push(`Skipped a job without a uid or createdAt: ${JSON.stringify(job).slice(0, 120)}`);
				continue;
			}
			this.jobs.set(String(job.uid), { job, createdMs });
			shown.add(String(job.uid));
			oldestMs = oldestMs === undefined ? createdMs : Math.min(oldestMs, createdMs);
		}
		return oldestMs;
	}
}
