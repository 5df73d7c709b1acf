import type { IDataObject } from 'n8n-workflow';

import type { TimeRange } from '../paging/reader';

/**
 * A round of the late-job sweep: every stretch between two jobs already read, from `sweptMs`
 * up to `toMs`, is asked once more at or after `startedMs`. `cursorMs` is where it has got to.
 */
export interface SweepPass {
	startedMs: number;
	fromMs: number;
	cursorMs: number;
	toMs: number;
}

/** How often the index shows jobs late, learned from the sweeps: it decides when a quick check pays. */
export interface SweepPace {
	/** Late jobs an hour, as the last passes found them. */
	latePerHour: number;
	/** When the last quick check ran. */
	lastCheckMs: number;
	/** Late jobs found since the last pass ended, and when it ended. */
	late: number;
	sinceMs: number;
}

/**
 * What the trigger remembers between polls (see DESIGN.md beside this file). It is small on
 * purpose: n8n saves it with the workflow after every poll that emits.
 */
export interface TriggerState {
	/** The newest createdAt read. Every visible match created after it is unread: the head. */
	headMs: number;
	/** Every job created before this was read, or its stretch asked after the Late Window had passed. */
	sweptMs: number;
	/** Also a count agreed with the jobs known before this (ties and removals are in hand): final, forgotten. */
	settledMs: number;
	/** When the last poll started (epoch ms): the sweep paces itself by the time between polls. */
	lastPollMs: number;
	/** uid → createdAt (ms) of every job read that was created at or after settledMs (or the gap). */
	seen: Map<string, number>;
	/** uids of `seen` the index no longer shows: not counted, never sent again if they come back. */
	gone: Set<string>;
	/** The sweep under way; none between the end of one and the next poll, which starts another. */
	pass?: SweepPass;
	pace: SweepPace;
	/** An older stretch of the head a poll could not finish within its budget; read before anything newer. */
	gap?: Required<TimeRange>;
}

const VERSION = 3;

/** The stored shape: ISO times so a person can read it in the workflow's static data. */
interface StoredState {
	version: number;
	head: string;
	swept: string;
	settled: string;
	lastPoll: string;
	pace: { latePerHour: number; lastCheck: string; late: number; since: string };
	seen: Record<string, number>;
	gone?: string[];
	pass?: { started: string; from: string; cursor: string; to: string };
	gap?: { from: string; to: string };
}

/** Version 2 (head + late-job counts): same seen set, the check window becomes the unsettled stretch. */
interface StoredStateV2 {
	version: 2;
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

function parseGone(value: unknown, seen: Map<string, number>): Set<string> {
	return new Set(Array.isArray(value) ? value.filter((uid): uid is string => typeof uid === 'string' && seen.has(uid)) : []);
}

function parseRange(value: unknown): Required<TimeRange> | undefined | null {
	if (value === undefined) return undefined;
	const range = value as { from?: unknown; to?: unknown };
	const fromMs = parseTime(range?.from);
	const toMs = parseTime(range?.to);
	return fromMs === undefined || toMs === undefined ? null : { fromMs, toMs };
}

function parsePass(value: unknown): SweepPass | undefined | null {
	if (value === undefined) return undefined;
	const pass = value as { started?: unknown; from?: unknown; cursor?: unknown; to?: unknown };
	const [startedMs, fromMs, cursorMs, toMs] = [pass?.started, pass?.from, pass?.cursor, pass?.to].map(parseTime);
	if (startedMs === undefined || fromMs === undefined || cursorMs === undefined || toMs === undefined) return null;
	return { startedMs, fromMs, cursorMs, toMs };
}

/** Nothing learned yet about late jobs: no quick checks until a sweep has found some. */
export function freshPace(nowMs: number): SweepPace {
	return { latePerHour: 0, lastCheckMs: nowMs, late: 0, sinceMs: nowMs };
}

function parsePace(value: unknown): SweepPace | undefined {
	const pace = value as { latePerHour?: unknown; lastCheck?: unknown; late?: unknown; since?: unknown } | undefined;
	const lastCheckMs = parseTime(pace?.lastCheck);
	const sinceMs = parseTime(pace?.since);
	const { latePerHour, late } = pace ?? {};
	if (lastCheckMs === undefined || sinceMs === undefined || typeof latePerHour !== 'number' || typeof late !== 'number') return undefined;
	if (!Number.isFinite(latePerHour) || !Number.isFinite(late) || latePerHour < 0 || late < 0) return undefined;
	return { latePerHour, lastCheckMs, late, sinceMs };
}

/**
 * Earlier versions read every job since their check window (v2) or `seenSince` (v1): that is the
 * unsettled stretch, and the next poll starts a sweep of it, which finds anything they had not read.
 */
function fromOlder(stored: StoredStateV2 | StoredStateV1): TriggerState | undefined {
	const seen = parseSeen(stored.seen);
	const gap = parseRange(stored.gap);
	if (seen === undefined || gap === null) return undefined;
	if (stored.version === 2) {
		const headMs = parseTime(stored.head);
		const settledMs = parseTime(stored.checkFrom);
		const lastPollMs = parseTime(stored.lastCheck);
		if (headMs === undefined || settledMs === undefined || lastPollMs === undefined) return undefined;
		return { headMs, sweptMs: settledMs, settledMs, lastPollMs, seen, gone: parseGone(stored.gone, seen), pace: freshPace(lastPollMs), ...(gap ? { gap } : {}) };
	}
	const settledMs = parseTime(stored.seenSince);
	if (settledMs === undefined || parseTime(stored.watermark) === undefined) return undefined;
	const headMs = Math.max(settledMs - 1, ...seen.values());
	return { headMs, sweptMs: settledMs, settledMs, lastPollMs: 0, seen, gone: new Set(), pace: freshPace(0), ...(gap ? { gap } : {}) };
}

/**
 * The state in the node's static data, or undefined when there is none yet (or it is malformed),
 * which makes the poll start over as on activation.
 */
export function readState(staticData: IDataObject): TriggerState | undefined {
	if (staticData.version === 1 || staticData.version === 2) return fromOlder(staticData as unknown as StoredStateV1 | StoredStateV2);
	const stored = staticData as Partial<StoredState>;
	if (stored.version !== VERSION) return undefined;
	const headMs = parseTime(stored.head);
	const sweptMs = parseTime(stored.swept);
	const settledMs = parseTime(stored.settled);
	const lastPollMs = parseTime(stored.lastPoll);
	const seen = parseSeen(stored.seen);
	const gap = parseRange(stored.gap);
	const pass = parsePass(stored.pass);
	const pace = parsePace(stored.pace);
	if ([headMs, sweptMs, settledMs, lastPollMs].includes(undefined) || seen === undefined || gap === null || pass === null || !pace) {
		return undefined;
	}
	return {
		headMs: headMs!,
		sweptMs: sweptMs!,
		settledMs: settledMs!,
		lastPollMs: lastPollMs!,
		seen,
		gone: parseGone(stored.gone, seen),
		pace,
		...(pass ? { pass } : {}),
		...(gap ? { gap } : {}),
	};
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Replaces the trigger's state in the static data in place (n8n keeps the object it handed out,
 * not a new one). Keys it does not own, such as the running poll's guard, are left as they are.
 */
export function writeState(staticData: IDataObject, state: TriggerState, keep: readonly string[] = []): void {
	const stored: StoredState = {
		version: VERSION,
		head: iso(state.headMs),
		swept: iso(state.sweptMs),
		settled: iso(state.settledMs),
		lastPoll: iso(state.lastPollMs),
		pace: { latePerHour: state.pace.latePerHour, lastCheck: iso(state.pace.lastCheckMs), late: state.pace.late, since: iso(state.pace.sinceMs) },
		seen: Object.fromEntries(state.seen),
	};
	if (state.gone.size > 0) stored.gone = [...state.gone];
	if (state.pass) {
		const { startedMs, fromMs, cursorMs, toMs } = state.pass;
		stored.pass = { started: iso(startedMs), from: iso(fromMs), cursor: iso(cursorMs), to: iso(toMs) };
	}
	if (state.gap) stored.gap = { from: iso(state.gap.fromMs), to: iso(state.gap.toMs) };
	for (const key of Object.keys(staticData)) if (!keep.includes(key)) delete staticData[key];
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
