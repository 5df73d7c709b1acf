import type { IDataObject } from 'n8n-workflow';

import { newestFirst, readRanges, type FetchPage, type ReadOutcome } from './pager';
import { pruneSeen, type TimeRange, type TriggerState } from './state';
import { MAX_SEEN_UIDS, POLL_BUDGET_SHARE } from './tunables';

export interface CycleSettings {
	/** How far before the watermark each poll reads again, for jobs the index shows late. */
	overlapMs: number;
	/** First poll only: emit the jobs of this many ms before now. Unset: emit nothing, just learn them. */
	firstPollLookbackMs?: number;
	maxJobsPerPoll: number;
	rowsPerRequest: number;
	budgetMs: number;
	/** Overridable for tests only. */
	maxSeenUids?: number;
}

export interface CycleOutcome {
	/** New jobs, newest first, each once. */
	emit: IDataObject[];
	/** The state to keep, once the jobs are safely handed over. */
	state: TriggerState;
	read: ReadOutcome;
	/** Rows paid for again because an earlier poll had already read them (the overlap's price). */
	overlapReReads: number;
	/** Rows read twice within this poll, at page boundaries that share a millisecond. */
	boundaryReReads: number;
	firstPoll: boolean;
	/** Seen uids the hard cap forgot (0 unless something is badly off). */
	capped: number;
}

function countAt(seen: Map<string, number>, ms: number): number {
	let count = 0;
	for (const createdMs of seen.values()) if (createdMs === ms) count++;
	return count;
}

function newestMs(read: ReadOutcome): number {
	let newest = -Infinity;
	for (const { createdMs } of read.jobs.values()) newest = Math.max(newest, createdMs);
	return newest;
}

/**
 * One poll, from the state before it to the state after it. It reads only what it must:
 * an unfinished older stretch first (so one poll never leaves two holes), then the window from
 * watermark − overlap to now. Nothing here touches n8n, so every rule is testable on its own.
 */
export async function runCycle(
	previous: TriggerState | undefined,
	settings: CycleSettings,
	fetchPage: FetchPage,
	now: () => number,
): Promise<CycleOutcome> {
	const startMs = now();
	const limits = {
		rowsPerRequest: settings.rowsPerRequest,
		maxRows: settings.maxJobsPerPoll,
		deadlineMs: startMs + settings.budgetMs * POLL_BUDGET_SHARE,
		now,
	};
	const firstPoll = previous === undefined;
	const emitting = !firstPoll || settings.firstPollLookbackMs !== undefined;

	const seenSinceMs = previous?.seenSinceMs ?? startMs - (settings.firstPollLookbackMs ?? settings.overlapMs);
	// Never ask for jobs older than the seen set remembers: it could not tell them from new ones.
	const clamp = (range: TimeRange): TimeRange => ({ ...range, fromMs: Math.max(range.fromMs, seenSinceMs) });
	const ranges: TimeRange[] = [];
	if (previous?.gap) ranges.push(clamp(previous.gap));
	ranges.push(clamp({ fromMs: previous ? previous.watermarkMs - settings.overlapMs : seenSinceMs }));
	const freshIndex = ranges.length - 1;

	const known = previous?.seen ?? new Map<string, number>();
	const read = await readRanges(ranges, fetchPage, limits, (ms) => countAt(known, ms));
	const fresh = [...read.jobs].filter(([uid]) => !known.has(uid)).sort(newestFirst);
	// A silent first poll pays for the activation window only to learn it: count that as overlap too.
	const overlapReReads = read.jobs.size - (emitting ? fresh.length : 0);

	const stopped = read.stopped;
	const freshTouched = !stopped || (stopped.rangeIndex === freshIndex && stopped.unread.toMs !== undefined);
	const watermarkMs = freshTouched
		? Math.max(previous?.watermarkMs ?? -Infinity, startMs, newestMs(read))
		: previous!.watermarkMs;
	let gap: TriggerState['gap'];
	let floorSinceMs = seenSinceMs;
	if (stopped?.unread.toMs !== undefined) {
		const unread = { fromMs: stopped.unread.fromMs, toMs: stopped.unread.toMs };
		// On a silent first poll the unread older part was never going to be emitted: forget it.
		if (emitting) gap = unread;
		else floorSinceMs = unread.toMs;
	}

	const seen = new Map(known);
	for (const [uid, { createdMs }] of read.jobs) seen.set(uid, createdMs);
	const floorMs = Math.max(floorSinceMs, Math.min(watermarkMs - settings.overlapMs, gap?.fromMs ?? Infinity));
	const pruned = pruneSeen(seen, floorMs, settings.maxSeenUids ?? MAX_SEEN_UIDS);
	if (gap && gap.fromMs < pruned.seenSinceMs) {
		gap = gap.toMs >= pruned.seenSinceMs ? { fromMs: pruned.seenSinceMs, toMs: gap.toMs } : undefined;
	}

	return {
		emit: emitting ? fresh.map(([, { job }]) => job) : [],
		state: { watermarkMs, seenSinceMs: pruned.seenSinceMs, seen: pruned.seen, ...(gap ? { gap } : {}) },
		read,
		overlapReReads,
		boundaryReReads: read.rows - read.jobs.size,
		firstPoll,
		capped: pruned.capped,
	};
}
