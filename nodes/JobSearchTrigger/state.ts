import type { IDataObject } from 'n8n-workflow';

import type { TimeRange } from '../JobSearch/paging/reader';

/**
 * What the trigger remembers between polls (see DESIGN.md beside this file). It is small on
 * purpose: n8n saves it with the workflow after every poll that emits.
 */
export interface TriggerState {
	/** The newest createdAt read. Every visible match created after it is unread: the head. */
	headMs: number;
	/** The next late-job check counts the window from here to now. */
	checkFromMs: number;
	/** When the last complete check ran (epoch ms). */
	lastCheckMs: number;
	/** uid → createdAt (ms) of every job read that was created at or after checkFromMs (or the gap). */
	seen: Map<string, number>;
	/** uids of `seen` the index no longer shows: not counted, never sent again if they come back. */
	gone: Set<string>;
	/** An older stretch of the head a poll could not finish within its budget; read before anything newer. */
	gap?: Required<TimeRange>;
}

const VERSION = 2;

/** The stored shape: ISO times so a person can read it in the workflow's static data. */
interface StoredState {
	version: number;
	head: string;
	checkFrom: string;
	lastCheck: string;
	seen: Record<string, number>;
	gone?: string[];
	gap?: { from: string; to: string };
}

/** Version 1 (watermark + overlap re-reads): enough to carry on without a silent restart. */
interface StoredStateV1 {
	version: 1;
	watermark: string;
	seenSince: string;
	seen: Record<string, number>;
	gap?: { from: string; to: string };
}

function parseTime(value: unknown): number | undefined {
	if (typeof value !== 'string') return undefined;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? undefined : ms;
}

function parseSeen(value: unknown): Map<string, number> | undefined {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
	const seen = new Map<string, number>();
	for (const [uid, ms] of Object.entries(value as Record<string, unknown>)) {
		if (typeof ms !== 'number' || !Number.isFinite(ms)) return undefined;
		seen.set(uid, ms);
	}
	return seen;
}

function parseGap(value: unknown): Required<TimeRange> | undefined | null {
	if (value === undefined) return undefined;
	const gap = value as { from?: unknown; to?: unknown };
	const fromMs = parseTime(gap?.from);
	const toMs = parseTime(gap?.to);
	return fromMs === undefined || toMs === undefined ? null : { fromMs, toMs };
}

/**
 * A version-1 state read every job since `seenSince`: head at its newest seen job, and a check of
 * the whole remembered stretch due at once, which finds anything the old cursor had not read yet.
 */
function fromV1(stored: StoredStateV1): TriggerState | undefined {
	const seenSinceMs = parseTime(stored.seenSince);
	const watermarkMs = parseTime(stored.watermark);
	const seen = parseSeen(stored.seen);
	const gap = parseGap(stored.gap);
	if (seenSinceMs === undefined || watermarkMs === undefined || seen === undefined || gap === null) return undefined;
	const newest = Math.max(seenSinceMs - 1, ...seen.values());
	return { headMs: newest, checkFromMs: seenSinceMs, lastCheckMs: 0, seen, gone: new Set(), ...(gap ? { gap } : {}) };
}

/**
 * The state in the node's static data, or undefined when there is none yet (or it is malformed),
 * which makes the poll start over as on activation.
 */
export function readState(staticData: IDataObject): TriggerState | undefined {
	if (staticData.version === 1) return fromV1(staticData as unknown as StoredStateV1);
	const stored = staticData as Partial<StoredState>;
	if (stored.version !== VERSION) return undefined;
	const headMs = parseTime(stored.head);
	const checkFromMs = parseTime(stored.checkFrom);
	const lastCheckMs = parseTime(stored.lastCheck);
	const seen = parseSeen(stored.seen);
	const gap = parseGap(stored.gap);
	const gone = Array.isArray(stored.gone) ? stored.gone.filter((uid) => typeof uid === 'string' && seen?.has(uid)) : [];
	if (headMs === undefined || checkFromMs === undefined || lastCheckMs === undefined || seen === undefined || gap === null) {
		return undefined;
	}
	return { headMs, checkFromMs, lastCheckMs, seen, gone: new Set(gone), ...(gap ? { gap } : {}) };
}

/** Replaces the static data in place: n8n keeps the object it handed out, not a new one. */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	const stored: StoredState = {
		version: VERSION,
		head: new Date(state.headMs).toISOString(),
		checkFrom: new Date(state.checkFromMs).toISOString(),
		lastCheck: new Date(state.lastCheckMs).toISOString(),
		seen: Object.fromEntries(state.seen),
	};
	if (state.gone.size > 0) stored.gone = [...state.gone];
	if (state.gap) stored.gap = { from: new Date(state.gap.fromMs).toISOString(), to: new Date(state.gap.toMs).toISOString() };
	for (const key of Object.keys(staticData)) delete staticData[key];
	Object.assign(staticData, stored);
}

export interface PrunedSeen {
	seen: Map<string, number>;
	gone: Set<string>;
	/** Where the kept uids start: moves up when the cap bites. */
	sinceMs: number;
	/** How many uids the hard cap dropped (not the ones that simply aged out). */
	capped: number;
}

/**
 * Keeps only uids a later query can return again (created at or after `floorMs`), and at most
 * `cap` of them, newest first. When the cap bites, `sinceMs` moves up with it, so later queries
 * never reach jobs the set has forgotten: that could send them twice.
 */
export function pruneSeen(seen: Map<string, number>, gone: Set<string>, floorMs: number, cap: number): PrunedSeen {
	const kept = [...seen].filter(([, ms]) => ms >= floorMs).sort((a, b) => b[1] - a[1]);
	const keepGone = (map: Map<string, number>) => new Set([...gone].filter((uid) => map.has(uid)));
	if (kept.length <= cap) {
		const map = new Map(kept);
		return { seen: map, gone: keepGone(map), sinceMs: floorMs, capped: 0 };
	}
	// Jobs created in the same millisecond as the last kept one stay together, or the boundary
	// would forget some of them while later queries still reach that millisecond.
	const boundaryMs = kept[cap - 1][1];
	const map = new Map(kept.filter(([, ms]) => ms >= boundaryMs));
	return { seen: map, gone: keepGone(map), sinceMs: boundaryMs, capped: kept.length - map.size };
}
