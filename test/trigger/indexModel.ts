import type { FetchPage, PageRequest } from '../../nodes/JobSearch/paging/reader';
import { seededRandom } from '../../server/random';

/**
 * Index shapes the trigger must hold on, as arrays: the service's search semantics (inclusive
 * window, newest first, ties by uid descending, `total` before `limit`, billed per row) over jobs
 * that each have their own moment of showing up and, for some, of going away again. Fast enough
 * for days of polls in a property test; the reference server's live mode offers the same shapes.
 */

export const MINUTE = 60_000;
export const ROW_PRICE = 579_000;

export interface IndexedJob {
	uid: string;
	createdMs: number;
	visibleMs: number;
	/** When the index stops showing it (closed or made private). */
	goneMs?: number;
}

const byServiceOrder = (a: IndexedJob, b: IndexedJob) =>
	b.createdMs - a.createdMs || b.uid.length - a.uid.length || (a.uid < b.uid ? 1 : a.uid > b.uid ? -1 : 0);

export const shownAt = (job: IndexedJob, ms: number) => job.visibleMs <= ms && (job.goneMs === undefined || job.goneMs > ms);

/** The service's search over an array; `requests` records every request for a test to read. */
export function arrayIndex(jobs: IndexedJob[], clock: { ms: number }) {
	const requests: PageRequest[] = [];
	let rows = 0;
	const fetchPage: FetchPage = async (request) => {
		requests.push(request);
		const matches = jobs
			.filter((j) => shownAt(j, clock.ms))
			.filter((j) => j.createdMs >= request.fromMs && (request.toMs === undefined || j.createdMs <= request.toMs))
			.sort(byServiceOrder);
		const page = matches.slice(0, request.limit).map((j) => ({ uid: j.uid, createdAt: new Date(j.createdMs).toISOString() }));
		rows += page.length;
		return { jobs: page, total: matches.length, consumedMicrocents: page.length * ROW_PRICE, remainingMicrocents: 1e12 };
	};
	return { fetchPage, requests, rows: () => rows };
}

export type IndexShape = 'batch' | 'out-of-order';

export interface ShapeOptions {
	shape: IndexShape;
	seed: number;
	fromMs: number;
	toMs: number;
	/** Matching postings an hour. */
	perHour: number;
	/** Share shown one refresh late (batch) or 16 to 40 minutes after posting (out of order). */
	stragglerShare: number;
	/** Share removed again, within `removalWithinMs` of showing. */
	removalShare: number;
	removalWithinMs: number;
}

/** The two index shapes: 4% stragglers and 3% removed within 30 minutes of showing. */
export const HARSH: Omit<ShapeOptions, 'shape' | 'seed' | 'fromMs' | 'toMs'> = {
	perHour: 32,
	stragglerShare: 0.04,
	removalShare: 0.03,
	removalWithinMs: 30 * MINUTE,
};

/**
 * Postings at random moments, each shown by the shape's rule:
 * - batch: the index refreshes every 5 to 15 minutes and shows what was posted before the
 *   refresh; a straggler waits for the refresh after;
 * - out of order: each posting is shown 1 to 16 minutes after it was posted, independently (an
 *   index fed by scrapers out of step); a straggler 16 to 40 minutes after.
 */
export function generateIndex(options: ShapeOptions): IndexedJob[] {
	const random = seededRandom(options.seed);
	const refreshes: number[] = [options.fromMs - 15 * MINUTE];
	while (refreshes[refreshes.length - 1] < options.toMs + 2 * 15 * MINUTE) {
		refreshes.push(refreshes[refreshes.length - 1] + 5 * MINUTE + Math.floor(random() * 10 * MINUTE));
	}
	const refreshAfter = (ms: number) => refreshes.findIndex((r) => r >= ms);
	const jobs: IndexedJob[] = [];
	const meanGapMs = 3_600_000 / options.perHour;
	let createdMs = options.fromMs - 90 * MINUTE;
	let serial = 0;
	while (createdMs < options.toMs) {
		createdMs += Math.max(1, Math.round(-Math.log(1 - random()) * meanGapMs));
		const straggles = random() < options.stragglerShare;
		let visibleMs: number;
		if (options.shape === 'batch') {
			const k = refreshAfter(createdMs + 1);
			visibleMs = refreshes[straggles ? k + 1 : k];
		} else {
			visibleMs = createdMs + (straggles ? 16 * MINUTE + random() * 24 * MINUTE : MINUTE + random() * 15 * MINUTE);
		}
		visibleMs = Math.round(visibleMs);
		const removed = random() < options.removalShare;
		const goneMs = removed ? visibleMs + 1 + Math.floor(random() * options.removalWithinMs) : undefined;
		jobs.push({ uid: String(1_000_000 + serial++), createdMs, visibleMs, goneMs });
	}
	return jobs;
}
