import type { IDataObject } from 'n8n-workflow';

import { MAX_ROWS_PER_CALL } from '../JobSearch/filters';
import type { TimeRange } from './state';

/** One search_jobs call: the window (both ends inclusive) and the most rows it may return. */
export interface PageRequest {
	fromMs: number;
	toMs?: number;
	limit: number;
}

export interface Page {
	/** Newest createdAt first, ties by uid descending (the service's order). */
	jobs: IDataObject[];
	consumedMicrocents: number;
	remainingMicrocents: number;
}

export type FetchPage = (request: PageRequest) => Promise<Page>;

export interface ReadLimits {
	rowsPerRequest: number;
	/** Rows (and so credit) one poll may read in all. */
	maxRows: number;
	/** No request starts at or after this moment (epoch ms). */
	deadlineMs: number;
	now: () => number;
}

export interface ReadJob {
	job: IDataObject;
	createdMs: number;
}

export interface ReadOutcome {
	/** Every distinct job read, by uid. */
	jobs: Map<string, ReadJob>;
	rows: number;
	requests: number;
	consumedMicrocents: number;
	remainingMicrocents?: number;
	/** Where reading stopped early: the range's index and the part of it left unread. */
	stopped?: { rangeIndex: number; unread: TimeRange };
	/** The failure that stopped reading after some pages had already been paid for. */
	interruptedBy?: Error;
	warnings: string[];
}

/** How many jobs created in exactly this millisecond were read before this poll. */
export type KnownAt = (ms: number) => number;

/**
 * Reads each range newest first, paging further back with `toDate` = the oldest createdAt of a
 * full page. That boundary is inclusive, so jobs sharing the boundary millisecond are read
 * again rather than skipped, and the uid map drops the repeats; each page asks for a page's worth
 * of rows beyond the jobs already known at its boundary, so every page gets further back.
 * Stops between requests when the row or time budget is spent (always after at least one
 * request, so every poll progresses), or when a request fails after others succeeded, and says
 * exactly what is left, for the next poll.
 */
export async function readRanges(
	ranges: readonly TimeRange[],
	fetchPage: FetchPage,
	limits: ReadLimits,
	knownAt: KnownAt = () => 0,
): Promise<ReadOutcome> {
	const outcome: ReadOutcome = { jobs: new Map(), rows: 0, requests: 0, consumedMicrocents: 0, warnings: [] };
	const atBoundary = (ms: number) => {
		let count = 0;
		for (const { createdMs } of outcome.jobs.values()) if (createdMs === ms) count++;
		return Math.max(count, knownAt(ms));
	};
	for (let rangeIndex = 0; rangeIndex < ranges.length; rangeIndex++) {
		const { fromMs } = ranges[rangeIndex];
		let toMs = ranges[rangeIndex].toMs;
		while (toMs === undefined || toMs >= fromMs) {
			const spent = outcome.rows >= limits.maxRows || limits.now() >= limits.deadlineMs;
			if (outcome.requests > 0 && spent) {
				outcome.stopped = { rangeIndex, unread: { fromMs, toMs } };
				return outcome;
			}
			const known = toMs === undefined ? 0 : atBoundary(toMs);
			if (known >= MAX_ROWS_PER_CALL) {
				outcome.warnings.push(
					`More than ${MAX_ROWS_PER_CALL} matching jobs share createdAt ${new Date(toMs!).toISOString()}; only ${MAX_ROWS_PER_CALL} of them could be read`,
				);
				toMs = toMs! - 1;
				continue;
			}
			// The jobs already read at the boundary come back first: ask for a page beyond them.
			const budgeted = Math.max(1, Math.min(limits.rowsPerRequest, limits.maxRows - outcome.rows));
			const limit = Math.min(MAX_ROWS_PER_CALL, known + budgeted);
			const page = await fetchPage({ fromMs, toMs, limit }).catch((error: Error) => error);
			if (page instanceof Error) {
				// Before any page the poll simply fails and changes nothing. After one, the rows
				// read are paid for: keep them and leave the rest for the next poll, like a budget stop.
				if (outcome.requests === 0) throw page;
				outcome.stopped = { rangeIndex, unread: { fromMs, toMs } };
				outcome.interruptedBy = page;
				return outcome;
			}
			outcome.requests++;
			outcome.rows += page.jobs.length;
			outcome.consumedMicrocents += page.consumedMicrocents;
			outcome.remainingMicrocents = page.remainingMicrocents;
			const oldestMs = collect(page.jobs, outcome);
			if (page.jobs.length < limit || oldestMs === undefined) break;
			toMs = oldestMs;
		}
	}
	return outcome;
}

/** Adds a page's jobs to the outcome; returns the oldest createdAt on the page. */
function collect(jobs: readonly IDataObject[], outcome: ReadOutcome): number | undefined {
	let oldestMs: number | undefined;
	for (const job of jobs) {
		const createdMs = typeof job.createdAt === 'string' ? Date.parse(job.createdAt) : Number.NaN;
		if (job.uid === undefined || Number.isNaN(createdMs)) {
			outcome.warnings.push(`Skipped a job without a uid or createdAt: ${JSON.stringify(job).slice(0, 120)}`);
			continue;
		}
		outcome.jobs.set(String(job.uid), { job, createdMs });
		oldestMs = oldestMs === undefined ? createdMs : Math.min(oldestMs, createdMs);
	}
	return oldestMs;
}

/** Newest first, ties by uid descending, as the service orders them (uids are digit strings). */
export function newestFirst(a: [string, ReadJob], b: [string, ReadJob]): number {
	if (a[1].createdMs !== b[1].createdMs) return b[1].createdMs - a[1].createdMs;
	const [ua, ub] = [a[0], b[0]];
	if (ua.length !== ub.length) return ub.length - ua.length;
	return ua < ub ? 1 : ua > ub ? -1 : 0;
}
