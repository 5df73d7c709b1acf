import type { IDataObject } from 'n8n-workflow';

import type { TimeRange } from '../paging/reader';
import type { RequestLedger } from './requests';
import { YOUNG_LOOK_AGES_MS } from './tunables';

/** A time range with both ends (inclusive, epoch ms). */
export type Range = Required<TimeRange>;

/** What a host may do that the reading adapts to while it lasts. */
const HOST_TRAITS = ['ties', 'rounds', 'repeats', 'overcounts'] as const;
export type HostTrait = (typeof HOST_TRAITS)[number];

/** A part to read whole: the rest of a read a poll could not finish. */
export interface Part extends Range {
	/** The activation's: its jobs created before this moment are learned, not sent. */
	learnBeforeMs?: number;
	/** Not read before this moment: a whole read's part that left out a job its total counted, until that job must show. */
	afterMs?: number;
	/** A cut read's rest: the jobs its first total left for it, and where that read began (a rest counting fewer: one was left out above). */
	owed?: number;
	aboveToMs?: number;
}

/** A part read again once a job left out must show, before that moment: read by no poll, gone around by a final look's stretches. */
export const waiting = (part: Part, nowMs: number): boolean => (part.afterMs ?? 0) > nowMs;

/** What one search knows of the index (DESIGN.md: the state table). */
export interface Watch {
	headMs: number;
	finalMs: number;
	floorMs: number;
	/** Per YOUNG_LOOK_AGES_MS: up to here every stretch had that look. */
	youngMs: number[];
	/** Where final looks began asking open stretches, since they last read whole for a reason that lasts (`coarse`). */
	stretchedFromMs?: number;
	/** uid → createdAt of every job read above the floor, and of older ones for MEMORY_MS (a repost moves it). */
	seen: Map<string, number>;
	/** uids of `seen` a whole read found missing: not counted, never sent again if they come back. */
	gone: Set<string>;
	/** The uids of `seen` its activation learned as history, not sent by it (a search added later learns them): no other search takes them as sent. */
	learned: Set<string>;
	pending: Part[];
	/**
	 * When (0: never) the index last showed two jobs in one millisecond, the host answered rows outside the range asked (it
	 * rounds the bounds), a uid twice in a page, or came short of its total where a short look's part was read again an hour
	 * later (it counts more than it answers): the reading adapts for a day after (MEMORY_MS).
	 */
	lastSeenMs: Record<HostTrait, number>;
	/** Recent (createdAt − host time) of the newest job at head reads, the activation read and Lowest Cost's looks. */
	offsets: { atMs: number; offsetMs: number }[];
	/** When Lowest Cost last looked at the index's clock (0: never). */
	clockLookMs: number;
}

/** A poll's own copy, as the state reads back (structuredClone's Set fails under Jest: "incompatible receiver"). */
export const cloneWatch = (w: Watch): Watch => fromJson(toJson(w)) as Watch;

/** Since when passing failures have lasted, and when that was last reported. */
export interface Trouble {
	sinceMs: number;
	reportedMs?: number;
}

export interface SearchState {
	/** When its first poll ran. */
	activatedMs: number;
	/** When a state the trigger could not read was dropped: that state may have sent any job shown before, so none is sent again. */
	droppedMs?: number;
	/** Added to a trigger that had polled already: Emit on First Poll is not for it. */
	added?: true;
	/** Undefined until its activation read has begun. */
	watch?: Watch;
	/** Several searches: since when its own 5xx or timeouts have left it no page (a 429 neither starts nor ends it). */
	trouble?: Trouble;
}

/** What the trigger remembers between polls: small on purpose, n8n saves it after every poll. */
export interface TriggerState {
	searches: Record<string, SearchState>;
	requests: RequestLedger;
	trouble?: Trouble;
	/** The polls that sent a request: the searches take turns at going first by it. */
	polls: number;
	/** uid → createdAt of the jobs removed searches sent, while another search may still read them. */
	removedSent?: Map<string, number>;
}

/** What is kept of a state of another version, or damaged: the times of its last requests, since those count in the key's window whatever the format. */
export interface DroppedState {
	dropped: true;
	sentMs: number[];
}

export const isDropped = (state: TriggerState | DroppedState | undefined): state is DroppedState => state !== undefined && 'dropped' in state;

const VERSION = 8;

/** The state as JSON, which n8n keeps: as it is in memory, its Maps and Sets tagged. */
function toJson(value: unknown): unknown {
	if (value instanceof Map) return { $map: Object.fromEntries(value) };
	if (value instanceof Set) return { $set: [...value] };
	if (Array.isArray(value)) return value.map(toJson);
	return value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([key, v]) => [key, toJson(v)])) : value;
}

function fromJson(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(fromJson);
	if (!value || typeof value !== 'object') return value;
	const object = value as IDataObject;
	if ('$map' in object) return new Map(Object.entries(object.$map as IDataObject));
	if ('$set' in object) return new Set(object.$set as unknown[]);
	return Object.fromEntries(Object.entries(object).map(([key, v]) => [key, fromJson(v)]));
}

/** Whether every time and count a state holds is a number: a damaged one throws or fails here, and is dropped. */
function holdsNumbers(state: TriggerState): boolean {
	const numbers = (values: Iterable<unknown>) => [...values].every((v) => typeof v === 'number' && Number.isFinite(v));
	const trouble = (t?: Trouble) => !t || numbers([t.sinceMs, t.reportedMs ?? 0]);
	const { requests: r } = state;
	const watch = (w: Watch) =>
		numbers([w.headMs, w.finalMs, w.floorMs, w.clockLookMs, w.stretchedFromMs ?? 0, ...w.youngMs, ...w.seen.values(), ...HOST_TRAITS.map((t) => w.lastSeenMs[t])]) &&
		numbers(w.offsets.flatMap((o) => [o.atMs, o.offsetMs])) &&
		numbers(w.pending.flatMap((p) => [p.fromMs, p.toMs, p.learnBeforeMs ?? 0, p.afterMs ?? 0, p.owed ?? 0, p.aboveToMs ?? 0])) &&
		w.gone instanceof Set &&
		w.learned instanceof Set;
	const search = (s: SearchState) => numbers([s.activatedMs, s.droppedMs ?? 0]) && trouble(s.trouble) && (!s.watch || watch(s.watch));
	return numbers([state.polls, r.tokens, r.atMs, r.share, r.pausedUntilMs, ...r.sentMs, ...(state.removedSent?.values() ?? [])]) && trouble(state.trouble) && Object.values(state.searches).every(search);
}

/** What is kept of a state of another version or damaged: its last requests' times (version 7 kept them as text). */
function dropped(staticData: IDataObject): DroppedState {
	const requests = ((staticData.state as IDataObject | undefined)?.requests ?? staticData.requests) as IDataObject | undefined;
	const sent = [requests?.sentMs, requests?.sent].flatMap((times) => (Array.isArray(times) ? times : []));
	return { dropped: true, sentMs: sent.map((at) => (typeof at === 'number' ? at : Date.parse(String(at)))).filter((ms) => Number.isFinite(ms)) };
}

/** The state in the node's static data; undefined when there is none; what is kept of one of another version or damaged. */
export function readState(staticData: IDataObject): TriggerState | DroppedState | undefined {
	if (staticData.version === undefined) return undefined;
	if (staticData.version !== VERSION) return dropped(staticData);
	try {
		const state = fromJson(staticData.state) as TriggerState;
		if (!holdsNumbers(state)) return dropped(staticData);
		for (const { watch } of Object.values(state.searches)) if (watch) watch.youngMs = YOUNG_LOOK_AGES_MS.map((_, k) => watch.youngMs[k] ?? watch.floorMs);
		return state;
	} catch {
		return dropped(staticData);
	}
}

/** Replaces the state in the static data in place (n8n keeps the object it handed out), leaving the `keep` keys (the poll's lock). */
export function writeState(staticData: IDataObject, state: TriggerState, keep: readonly string[] = []): void {
	for (const key of Object.keys(staticData)) if (!keep.includes(key)) delete staticData[key];
	Object.assign(staticData, { version: VERSION, state: toJson(state) });
}
