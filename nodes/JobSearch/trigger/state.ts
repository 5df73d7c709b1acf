import type { IDataObject } from 'n8n-workflow';

import type { RequestLedger } from './requests';
import { YOUNG_LOOK_AGES_MS } from './tunables';

/** Both ends inclusive, epoch ms. */
export interface Range {
	fromMs: number;
	toMs: number;
}

/** What a host may do that the reading adapts to while it lasts. */
export const HOST_TRAITS = ['ties', 'rounds', 'repeats', 'overcounts'] as const;
export type HostTrait = (typeof HOST_TRAITS)[number];

/** A part to read whole: the rest of a read a poll could not finish. */
interface Part extends Range {
	/** The activation's: its jobs created before this moment are learned, not sent. */
	learnBeforeMs?: number;
	/** Not read before this moment: a whole read's part that left out a job its total counted, until that job must show. */
	afterMs?: number;
}

/** What one search knows of the index (DESIGN.md: the state table). */
export interface Watch {
	headMs: number;
	finalMs: number;
	floorMs: number;
	/** Per YOUNG_LOOK_AGES_MS: up to here every stretch had that look. */
	youngMs: number[];
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

/** A poll's own copy. By hand, not structuredClone: under Jest its Set fails ("incompatible receiver") in the property tests. */
export function cloneWatch(w: Watch): Watch {
	const { youngMs, seen, gone, learned, pending, lastSeenMs, offsets } = w;
	return { ...w, youngMs: [...youngMs], seen: new Map(seen), gone: new Set(gone), learned: new Set(learned), pending: pending.map((p) => ({ ...p })), lastSeenMs: { ...lastSeenMs }, offsets: [...offsets] };
}

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

const VERSION = 7;
/** Version 6 differs only in keeping the last poll's time, which nothing read, where 7 counts the polls. */
const READABLE_VERSIONS: unknown[] = [6, VERSION];
const iso = (ms: number) => new Date(ms).toISOString();

function time(value: unknown): number {
	const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	if (Number.isNaN(ms)) throw new Error('not a time');
	return ms;
}

function finite(value: unknown): number {
	if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error('not a number');
	return value;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const readTrouble = (t: IDataObject): Trouble => ({ sinceMs: time(t.since), ...(t.reported ? { reportedMs: time(t.reported) } : {}) });
const storeTrouble = (t: Trouble) => ({ since: iso(t.sinceMs), ...(t.reportedMs !== undefined ? { reported: iso(t.reportedMs) } : {}) });
const readPart = (p: IDataObject): Part => ({ fromMs: time(p.from), toMs: time(p.to), ...(p.learnBefore ? { learnBeforeMs: time(p.learnBefore) } : {}), ...(p.after ? { afterMs: time(p.after) } : {}) });
const storePart = ({ fromMs, toMs, learnBeforeMs, afterMs }: Part) => ({ from: iso(fromMs), to: iso(toMs), ...(learnBeforeMs !== undefined ? { learnBefore: iso(learnBeforeMs) } : {}), ...(afterMs !== undefined ? { after: iso(afterMs) } : {}) });

function readWatch(w: IDataObject): Watch {
	const seen = new Map<string, number>();
	for (const [uid, ms] of Object.entries(w.seen as IDataObject)) seen.set(uid, finite(ms));
	const young = list(w.young).map(time);
	const floorMs = time(w.floor);
	return {
		headMs: time(w.head),
		finalMs: time(w.final),
		floorMs,
		youngMs: YOUNG_LOOK_AGES_MS.map((_, k) => young[k] ?? floorMs),
		seen,
		gone: new Set(list(w.gone).filter((uid): uid is string => typeof uid === 'string' && seen.has(uid))),
		learned: new Set(list(w.learned).filter((uid): uid is string => typeof uid === 'string' && seen.has(uid))),
		pending: list(w.pending).map((p) => readPart(p as IDataObject)),
		lastSeenMs: Object.fromEntries(HOST_TRAITS.map((trait) => [trait, finite(w[`${trait}Seen`] ?? 0)])) as Watch['lastSeenMs'],
		offsets: list(w.offsets).map((o) => ({ atMs: time((o as IDataObject).at), offsetMs: finite((o as IDataObject).offsetMs) })),
		clockLookMs: finite(w.clockLook ?? 0),
	};
}

function storeWatch(w: Watch): IDataObject {
	return {
		head: iso(w.headMs),
		final: iso(w.finalMs),
		floor: iso(w.floorMs),
		young: w.youngMs.map(iso),
		seen: Object.fromEntries(w.seen),
		...(w.gone.size > 0 ? { gone: [...w.gone] } : {}),
		...(w.learned.size > 0 ? { learned: [...w.learned] } : {}),
		...(w.pending.length > 0 ? { pending: w.pending.map(storePart) } : {}),
		...Object.fromEntries(HOST_TRAITS.map((trait) => [`${trait}Seen`, w.lastSeenMs[trait]])),
		offsets: w.offsets.map((o) => ({ at: iso(o.atMs), offsetMs: o.offsetMs })),
		clockLook: w.clockLookMs,
	};
}

function dropped(staticData: IDataObject): DroppedState {
	const sent = list((staticData.requests as IDataObject | undefined)?.sent).map((at) => Date.parse(String(at)));
	return { dropped: true, sentMs: sent.filter((ms) => Number.isFinite(ms)) };
}

/** The state in the node's static data; undefined when there is none; what is kept of one of another version or damaged. */
export function readState(staticData: IDataObject): TriggerState | DroppedState | undefined {
	if (staticData.version === undefined) return undefined;
	if (!READABLE_VERSIONS.includes(staticData.version)) return dropped(staticData);
	try {
		const r = staticData.requests as IDataObject;
		const trouble = staticData.trouble as IDataObject | undefined;
		const searches: Record<string, SearchState> = {};
		for (const [key, s] of Object.entries(staticData.searches as IDataObject)) {
			const search = s as IDataObject;
			searches[key] = {
				activatedMs: time(search.activated),
				...(search.dropped ? { droppedMs: time(search.dropped) } : {}),
				...(search.watch ? { watch: readWatch(search.watch as IDataObject) } : {}),
				...(search.trouble ? { trouble: readTrouble(search.trouble as IDataObject) } : {}),
			};
		}
		return {
			polls: finite(staticData.polls ?? 0),
			searches,
			requests: { tokens: finite(r.tokens), atMs: time(r.at), share: finite(r.share), sentMs: list(r.sent).map(time), pausedUntilMs: time(r.pausedUntil) },
			...(trouble ? { trouble: readTrouble(trouble) } : {}),
			...(staticData.removedSent ? { removedSent: new Map(Object.entries(staticData.removedSent as IDataObject).map(([uid, ms]) => [uid, finite(ms)])) } : {}),
		};
	} catch {
		return dropped(staticData);
	}
}

/** Replaces the state in the static data in place (n8n keeps the object it handed out), leaving the `keep` keys (the poll's lock). */
export function writeState(staticData: IDataObject, state: TriggerState, keep: readonly string[] = []): void {
	const { requests: r, trouble: t } = state;
	for (const key of Object.keys(staticData)) if (!keep.includes(key)) delete staticData[key];
	Object.assign(staticData, {
		version: VERSION,
		polls: state.polls,
		searches: Object.fromEntries(
			Object.entries(state.searches).map(([key, s]) => [
				key,
				{
					activated: iso(s.activatedMs),
					...(s.droppedMs !== undefined ? { dropped: iso(s.droppedMs) } : {}),
					...(s.watch ? { watch: storeWatch(s.watch) } : {}),
					...(s.trouble ? { trouble: storeTrouble(s.trouble) } : {}),
				},
			]),
		),
		requests: { tokens: r.tokens, at: iso(r.atMs), share: r.share, sent: r.sentMs.map(iso), pausedUntil: iso(r.pausedUntilMs) },
		...(t ? { trouble: storeTrouble(t) } : {}),
		...(state.removedSent?.size ? { removedSent: Object.fromEntries(state.removedSent) } : {}),
	});
}
