import type { IDataObject } from 'n8n-workflow';

import type { TimeRange } from '../paging/reader';
import type { RequestLedger } from './requests';
import { DEFER_AFTER_ROWS, FRESHNESS_ROWS_START } from './tunables';

export type Range = Required<TimeRange>;

/**
 * A sweep: every stretch between jobs already read, from `fromMs` up to `toMs` (the head it has
 * followed so far), is asked once more at or after `startedMs`, oldest first; every stretch up to
 * `askedToMs` has been asked. Unless `finalUpToMs` is -Infinity (a pass of the newest stretches,
 * or where the index makes ties), a stretch it asks in order up from the final looks' edge after
 * the Late Window had passed over it has had its final look.
 */
export interface Pass {
	startedMs: number;
	fromMs: number;
	askedToMs: number;
	toMs: number;
	finalUpToMs: number;
}

/** A part of the index to read whole. */
export interface PendingRead extends Range {
	/** Part of the activation read: its jobs created before this moment are learned, not sent. */
	learnBeforeMs?: number;
	/**
	 * A final look that reads its part whole, up to `finalToMs` (what is above `toMs` was read
	 * already): the final looks stand at `finalToMs` once this part is read.
	 */
	finalToMs?: number;
	/**
	 * Left by the head for its final look (where the index makes ties, a job bought before it is
	 * bought again at it): read once the Late Window has passed over `toMs` and the final looks
	 * have come up to `fromMs`; nothing asks inside it before.
	 */
	deferred?: boolean;
}

/** What the trigger knows of the index, once activation has read the Late Window. */
export interface Watch {
	/** The newest createdAt read. Every visible match created after it is unread: the head. */
	headMs: number;
	/** Every open stretch up to here had its final look: asked after the Late Window had passed over it. */
	finalMs: number;
	/** Also counted after its final look (ties in hand): settled, and the uids below it forgotten. */
	floorMs: number;
	/** uid → createdAt (ms) of every job read at or after floorMs, at its latest createdAt (a repost moves it). */
	seen: Map<string, number>;
	/** uids of `seen` the index no longer shows: not counted, never sent again if they come back. */
	gone: Set<string>;
	/** Parts of the index not read yet although they must be read whole (an unfinished head or final read), oldest first. */
	pending: PendingRead[];
	pass?: Pass;
	/** When the last pass started, and whether it could ask the whole unsettled window stretch by stretch. */
	passStartedMs: number;
	wholePasses: boolean;
	/** Where requests are scarce: up to here the young window had its one count (see YOUNG_CHECK_AGE_MS). */
	checkedMs: number;
	/** When the index last showed two jobs in one millisecond (0: never): counts are then needed to find late ties. */
	tiesSeenMs: number;
	/** The newest createdAt at which the index showed two jobs (-Infinity: none): where a late tie may come. */
	tiesAtMs: number;
	/** Rows the counts that only make late jobs come sooner may still spend (FRESHNESS_ROWS_PER_JOB). */
	spareRows: number;
	/**
	 * Where the index makes ties, rows the head may still buy ahead of the final look (AHEAD_ROWS_PER_JOB);
	 * where the final looks are short of requests, jobs it may still read ahead of them (AHEAD_ALL_ASKABLE_SHARE).
	 */
	aheadRows: number;
	/**
	 * The largest (createdAt − host time) seen at a head read, lately: the index's clock is at
	 * least the host's plus this, whatever the skew between them. Ages are measured from it.
	 */
	offsets: { atMs: number; offsetMs: number }[];
}

/** A run of transient failures (rate limits, service faults) that has not ended yet. */
export interface Trouble {
	sinceMs: number;
	/** Polls in a row that could not read the head. */
	polls: number;
	/** When the trigger last failed an execution for it: at most once per trouble period. */
	reportedMs?: number;
}

/** One search of the trigger. */
export interface SearchState {
	/** When its first poll ran: jobs posted since (or in the index's usual delay before) are sent even if its activation read came later. */
	activatedMs: number;
	/** Undefined until its activation read has finished. */
	watch?: Watch;
}

/**
 * What the trigger remembers between polls (DESIGN.md beside this file). Small on purpose: n8n
 * saves it with the workflow after every poll.
 */
export interface TriggerState {
	/** Each search by its key (see searches.ts): a search whose filters change starts over. */
	searches: Record<string, SearchState>;
	/** The request budget every search of the trigger spends. */
	requests: RequestLedger;
	trouble?: Trouble;
	/** When the last poll started (epoch ms). */
	lastPollMs: number;
}

const VERSION = 5;

interface StoredState {
	version: number;
	lastPoll: string;
	requests: { tokens: number; at: string; share: number; sent: string[]; pausedUntil: string };
	trouble?: { since: string; polls: number; reported?: string };
	searches: Record<string, { activated: string; watch?: StoredWatch }>;
}

interface StoredWatch {
	head: string;
	final: string;
	floor: string;
	seen: Record<string, number>;
	gone?: string[];
	pending?: { from: string; to: string; learnBefore?: string; finalTo?: string; deferred?: boolean }[];
	/**
	 * No `finalUpTo`: a pass that gives no final look. A pass stored with a `cursor` instead of an
	 * `askedTo` went down from the head (0.1.0-dev): it is dropped, and the next one starts afresh.
	 */
	pass?: { started: string; from: string; askedTo?: string; to: string; finalUpTo?: string };
	passStarted: string;
	wholePasses: boolean;
	checked: string;
	tiesSeen: number;
	tiesAt?: string;
	spareRows?: number;
	aheadRows?: number;
	offsets: { at: string; offsetMs: number }[];
}

const iso = (ms: number) => new Date(ms).toISOString();

function time(value: unknown): number {
	if (typeof value !== 'string') throw new Error('not a time');
	const ms = Date.parse(value);
	if (Number.isNaN(ms)) throw new Error('not a time');
	return ms;
}

function finite(value: unknown, min = -Infinity): number {
	if (typeof value !== 'number' || !Number.isFinite(value) || value < min) throw new Error('not a number');
	return value;
}

function range(value: unknown): Range {
	const r = value as { from?: unknown; to?: unknown };
	return { fromMs: time(r?.from), toMs: time(r?.to) };
}

function readWatch(stored: StoredWatch): Watch {
	const seen = new Map<string, number>();
	if (typeof stored.seen !== 'object' || stored.seen === null || Array.isArray(stored.seen)) throw new Error('no seen');
	for (const [uid, ms] of Object.entries(stored.seen)) seen.set(uid, finite(ms));
	const gone = new Set((Array.isArray(stored.gone) ? stored.gone : []).filter((uid): uid is string => typeof uid === 'string' && seen.has(uid)));
	const p = stored.pass;
	return {
		headMs: time(stored.head),
		finalMs: time(stored.final),
		floorMs: time(stored.floor),
		seen,
		gone,
		pending: (Array.isArray(stored.pending) ? stored.pending : []).map((r) => ({
			...range(r),
			...(r.learnBefore !== undefined ? { learnBeforeMs: time(r.learnBefore) } : {}),
			...(r.finalTo !== undefined ? { finalToMs: time(r.finalTo) } : {}),
			...(r.deferred === true ? { deferred: true } : {}),
		})),
		...(p?.askedTo !== undefined
			? {
					pass: {
						startedMs: time(p.started),
						fromMs: time(p.from),
						askedToMs: time(p.askedTo),
						toMs: time(p.to),
						finalUpToMs: p.finalUpTo === undefined ? -Infinity : time(p.finalUpTo),
					},
				}
			: {}),
		passStartedMs: time(stored.passStarted),
		wholePasses: stored.wholePasses === true,
		checkedMs: time(stored.checked),
		tiesSeenMs: finite(stored.tiesSeen, 0),
		tiesAtMs: stored.tiesAt === undefined ? -Infinity : time(stored.tiesAt),
		spareRows: stored.spareRows === undefined ? FRESHNESS_ROWS_START : finite(stored.spareRows),
		aheadRows: stored.aheadRows === undefined ? DEFER_AFTER_ROWS : finite(stored.aheadRows),
		offsets: (Array.isArray(stored.offsets) ? stored.offsets : []).map((o) => ({ atMs: time(o.at), offsetMs: finite(o.offsetMs) })),
	};
}

/**
 * The state in the node's static data, or undefined when there is none (or it is not this
 * version's, or malformed): the poll then starts as on activation.
 */
export function readState(staticData: IDataObject): TriggerState | undefined {
	const stored = staticData as Partial<StoredState>;
	if (stored.version !== VERSION) return undefined;
	try {
		const r = stored.requests!;
		const state: TriggerState = {
			lastPollMs: time(stored.lastPoll),
			searches: {},
			requests: {
				tokens: finite(r.tokens),
				atMs: time(r.at),
				share: finite(r.share, 0),
				sentMs: (Array.isArray(r.sent) ? r.sent : []).map(time),
				pausedUntilMs: time(r.pausedUntil),
			},
		};
		if (stored.trouble) {
			state.trouble = {
				sinceMs: time(stored.trouble.since),
				polls: finite(stored.trouble.polls, 0),
				...(stored.trouble.reported ? { reportedMs: time(stored.trouble.reported) } : {}),
			};
		}
		if (typeof stored.searches !== 'object' || stored.searches === null) return undefined;
		for (const [key, search] of Object.entries(stored.searches)) {
			state.searches[key] = { activatedMs: time(search.activated), ...(search.watch ? { watch: readWatch(search.watch) } : {}) };
		}
		return state;
	} catch {
		return undefined;
	}
}

function storeWatch(watch: Watch): StoredWatch {
	const stored: StoredWatch = {
		head: iso(watch.headMs),
		final: iso(watch.finalMs),
		floor: iso(watch.floorMs),
		seen: Object.fromEntries(watch.seen),
		passStarted: iso(watch.passStartedMs),
		wholePasses: watch.wholePasses,
		checked: iso(watch.checkedMs),
		tiesSeen: watch.tiesSeenMs,
		...(Number.isFinite(watch.tiesAtMs) ? { tiesAt: iso(watch.tiesAtMs) } : {}),
		spareRows: watch.spareRows,
		aheadRows: watch.aheadRows,
		offsets: watch.offsets.map((o) => ({ at: iso(o.atMs), offsetMs: o.offsetMs })),
	};
	if (watch.gone.size > 0) stored.gone = [...watch.gone];
	if (watch.pending.length > 0) {
		stored.pending = watch.pending.map((r) => ({
			from: iso(r.fromMs),
			to: iso(r.toMs),
			...(r.learnBeforeMs !== undefined ? { learnBefore: iso(r.learnBeforeMs) } : {}),
			...(r.finalToMs !== undefined ? { finalTo: iso(r.finalToMs) } : {}),
			...(r.deferred ? { deferred: true } : {}),
		}));
	}
	if (watch.pass) {
		const { startedMs, fromMs, askedToMs, toMs, finalUpToMs } = watch.pass;
		stored.pass = { started: iso(startedMs), from: iso(fromMs), askedTo: iso(askedToMs), to: iso(toMs) };
		if (Number.isFinite(finalUpToMs)) stored.pass.finalUpTo = iso(finalUpToMs);
	}
	return stored;
}

/**
 * Replaces the trigger's state in the static data in place (n8n keeps the object it handed out,
 * not a new one). Keys it does not own, such as the running poll's lock, are left as they are.
 */
export function writeState(staticData: IDataObject, state: TriggerState, keep: readonly string[] = []): void {
	const r = state.requests;
	const stored: StoredState = {
		version: VERSION,
		lastPoll: iso(state.lastPollMs),
		searches: Object.fromEntries(
			Object.entries(state.searches).map(([key, search]) => [key, { activated: iso(search.activatedMs), ...(search.watch ? { watch: storeWatch(search.watch) } : {}) }]),
		),
		requests: { tokens: r.tokens, at: iso(r.atMs), share: r.share, sent: r.sentMs.map(iso), pausedUntil: iso(r.pausedUntilMs) },
	};
	if (state.trouble) {
		stored.trouble = {
			since: iso(state.trouble.sinceMs),
			polls: state.trouble.polls,
			...(state.trouble.reportedMs !== undefined ? { reported: iso(state.trouble.reportedMs) } : {}),
		};
	}
	for (const key of Object.keys(staticData)) if (!keep.includes(key)) delete staticData[key];
	Object.assign(staticData, stored);
}
