import type { IDataObject } from 'n8n-workflow';

/** Both ends inclusive, in epoch milliseconds; no `toMs` means "up to now". */
export interface TimeRange {
	fromMs: number;
	toMs?: number;
}

/**
 * What the trigger remembers between polls. It is small on purpose: n8n saves it with the
 * workflow after every poll that emits.
 */
export interface TriggerState {
	/** Every visible match created up to here has been read, except what `gap` names. */
	watermarkMs: number;
	/** `seen` holds every job read that was created at or after this; no query reaches further back. */
	seenSinceMs: number;
	/** uid → createdAt (ms) of jobs already read, which a later overlap window may return again. */
	seen: Map<string, number>;
	/** An older stretch a poll could not finish within its budget; read before anything newer. */
	gap?: Required<TimeRange>;
}

const VERSION = 1;

/** The stored shape: ISO times so a person can read it in the workflow's static data. */
interface StoredState {
	version: number;
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

/**
 * The state in the node's static data, or undefined when there is none yet (or it is from a
 * version this code does not know), which makes the poll start over as on activation.
 */
export function readState(staticData: IDataObject): TriggerState | undefined {
	const stored = staticData as Partial<StoredState>;
	if (stored.version !== VERSION) return undefined;
	const watermarkMs = parseTime(stored.watermark);
	const seenSinceMs = parseTime(stored.seenSince);
	const seen = parseSeen(stored.seen);
	if (watermarkMs === undefined || seenSinceMs === undefined || seen === undefined) return undefined;
	const state: TriggerState = { watermarkMs, seenSinceMs, seen };
	if (stored.gap) {
		const fromMs = parseTime(stored.gap.from);
		const toMs = parseTime(stored.gap.to);
		if (fromMs === undefined || toMs === undefined) return undefined;
		state.gap = { fromMs, toMs };
	}
	return state;
}

/** Replaces the static data in place: n8n keeps the object it handed out, not a new one. */
export function writeState(staticData: IDataObject, state: TriggerState): void {
	const stored: StoredState = {
		version: VERSION,
		watermark: new Date(state.watermarkMs).toISOString(),
		seenSince: new Date(state.seenSinceMs).toISOString(),
		seen: Object.fromEntries(state.seen),
	};
	if (state.gap) stored.gap = { from: new Date(state.gap.fromMs).toISOString(), to: new Date(state.gap.toMs).toISOString() };
	for (const key of Object.keys(staticData)) delete staticData[key];
	Object.assign(staticData, stored);
}

export interface PrunedSeen {
	seen: Map<string, number>;
	seenSinceMs: number;
	/** How many uids the hard cap dropped (not the ones that simply aged out). */
	capped: number;
}

/**
 * Keeps only uids a later query can return again (created at or after `floorMs`), and at most
 * `cap` of them, newest first. When the cap bites, `seenSinceMs` moves up with it, so later
 * queries never reach jobs the set has forgotten: that could emit them twice.
 */
export function pruneSeen(seen: Map<string, number>, floorMs: number, cap: number): PrunedSeen {
	const kept = [...seen].filter(([, ms]) => ms >= floorMs).sort((a, b) => b[1] - a[1]);
	if (kept.length <= cap) return { seen: new Map(kept), seenSinceMs: floorMs, capped: 0 };
	// Jobs created in the same millisecond as the last kept one stay together, or the boundary
	// would forget some of them while later queries still reach that millisecond.
	const boundaryMs = kept[cap - 1][1];
	const survivors = kept.filter(([, ms]) => ms >= boundaryMs);
	return { seen: new Map(survivors), seenSinceMs: boundaryMs, capped: kept.length - survivors.length };
}
