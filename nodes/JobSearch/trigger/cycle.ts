import type { IDataObject } from 'n8n-workflow';

import { compareNewestFirst, type FetchPage, type ReadJob } from '../paging/reader';
import { RequestBudget, freshLedger } from './requests';
import { SearchRun, type SearchResult } from './search';
import type { SearchState, TriggerState, Trouble } from './state';
import type { CycleDeps, CycleSettings, FailureKind } from './types';
import { FAULT_PAUSE_MS, MAX_FAULT_PAUSE_MS, POLL_TIME_SHARE } from './tunables';

export { passEveryMs, pruneSeen } from './search';
export type { CycleDeps, CycleSettings, FailureKind } from './types';

/** One search to poll: its key (see searches.ts) and how to ask the service with its filters. */
export interface SearchInput {
	key: string;
	fetchPage: FetchPage;
}

/** What every search's readers read in this poll, together. */
export interface ReadTotals {
	rows: number;
	requests: number;
	consumedMicrocents: number;
	remainingMicrocents?: number;
	interruptedBy?: Error;
	warnings: string[];
}

export interface CycleOutcome {
	/** New jobs, newest first, each once however many searches found it. */
	emit: IDataObject[];
	/** For each job sent, by uid: the keys of the searches that found it in this poll, in the order given. */
	foundBy: Map<string, string[]>;
	/** The state to keep, once the jobs are safely handed over. */
	state: TriggerState;
	reader: ReadTotals;
	budget: RequestBudget;
	/** Some search read its Late Window for the first time. */
	firstPoll: boolean;
	/** Some search's activation read is not finished yet: its rest follows on the next polls. */
	learning: boolean;
	/** A pass (or the final looks) reached its end in this poll. */
	passDone: boolean;
	/** New jobs the index showed after newer ones had been read. */
	late: number;
	/** Jobs found gone from the index in this poll. */
	gone: number;
	/** Known jobs found at a newer createdAt (posted again): not sent again. */
	reposts: number;
	/** Seen uids the hard cap forgot inside the window (0 unless something is badly off). */
	capped: number;
	/** The failure that ended a search's reading, and what it means. */
	failure?: { error: Error; kind: FailureKind };
}

/**
 * How the trouble streak stands after this poll: it ends once every search's head came through;
 * a poll that met a passing failure, or was paused by one, adds to it.
 */
function troubleAfter(previous: Trouble | undefined, startMs: number, headRead: boolean, failure: CycleOutcome['failure'], paused: boolean): Trouble | undefined {
	if (headRead) return undefined;
	const passing = failure && failure.kind.kind !== 'lasting';
	if (passing || (paused && previous)) return previous ? { ...previous, polls: previous.polls + 1 } : { sinceMs: startMs, polls: 1 };
	return previous;
}

/**
 * One poll of every search of the trigger, on one request budget (DESIGN.md beside this file):
 * every search's parts left to read whole and its head first, then each search's late-job looks.
 * A job several searches find is sent once, with every search that found it in this poll. Any
 * failure ends the reading (a 429 that ends within the poll's time is waited out) and keeps what
 * was paid for. Nothing here touches n8n.
 */
export async function runSearches(previous: TriggerState | undefined, searches: SearchInput[], settings: CycleSettings, deps: CycleDeps): Promise<CycleOutcome> {
	const startMs = deps.now();
	const base: TriggerState = previous ?? { searches: {}, requests: freshLedger(startMs, settings), lastPollMs: startMs };
	const budget = new RequestBudget(base.requests, settings, deps, startMs + settings.pollTimeMs * POLL_TIME_SHARE);
	const knownBy = (key: string) => (uid: string) =>
		Object.entries(base.searches).some(([other, search]) => other !== key && search.watch?.seen.has(uid) === true);
	const runs = searches.map(({ key, fetchPage }) => {
		const state: SearchState = base.searches[key] ?? { activatedMs: startMs - (settings.unkeptActivationWithinMs ?? 0) };
		return new SearchRun(key, state, settings, { ...deps, fetchPage }, budget, base.lastPollMs, knownBy(key), searches.length);
	});
	// The searches take turns at going first, so a budget that runs out does not always miss the same one.
	const turn = runs.length > 0 ? Math.floor(startMs / settings.intervalMs) % runs.length : 0;
	const inTurn = [...runs.slice(turn), ...runs.slice(0, turn)];
	const rowsRead = () => runs.reduce((sum, run) => sum + run.reader.rows, 0);
	// Searches that read their Late Window for the first time send their first requests together, so
	// the index shows each of them the same jobs (one that came into view between two of those reads
	// would be history to the later search alone); their further pages follow one search at a time.
	let before: Promise<unknown> = Promise.resolve();
	await Promise.all(
		inTurn
			.filter((run) => run.activating)
			.map((run) => {
				const read = run.readNew(0, before);
				before = read;
				return read;
			}),
	);
	for (const run of inTurn.filter((run) => !run.activating)) await run.readNew(run.reader.rows + settings.maxJobsPerPoll - rowsRead());
	// Each search's final looks may take its share of the requests left (the last one all of them).
	for (const [i, run] of inTurn.entries()) await run.look(run.reader.rows + 2 * settings.maxJobsPerPoll - rowsRead(), 1 / (inTurn.length - i));
	// A job one search found late (or before the others' heads came by) may match another search
	// whose head had already passed its time: that search is asked for the job's millisecond, so
	// the job names every search it matches. Only with requests to spare; a row when it matches.
	for (const run of runs) {
		for (const read of [...run.known.fresh]) {
			const uid = String(read.job.uid);
			for (const other of runs) {
				if (other === run || budget.remaining() === 0 || !other.mayHaveMissed(uid, read.createdMs)) continue;
				await other.askMillisecond(read.createdMs);
			}
		}
	}

	const results: SearchResult[] = runs.map((run) => run.result());
	const firstFailure = results.map((r) => r.reader.interruptedBy).find((error): error is Error => error !== undefined);
	const failure = firstFailure ? { error: firstFailure, kind: deps.classify(firstFailure) } : undefined;
	const requests = results.reduce((sum, r) => sum + r.reader.requests, 0);
	const headRead = results.every((r) => r.headRead);
	const trouble = troubleAfter(base.trouble, startMs, headRead, failure, requests === 0 && budget.pausedUntilMs() > startMs);
	if (failure?.kind.kind === 'passing') {
		// The pause doubles while the trouble lasts: a service that is down is not hammered.
		const lastedMs = trouble ? startMs - trouble.sinceMs : 0;
		budget.pause(Math.min(MAX_FAULT_PAUSE_MS, Math.max(FAULT_PAUSE_MS, lastedMs / 2)));
	}

	// Each job once, newest first, with every search that found it, in the order the user gave.
	const found = new Map<string, { read: ReadJob; keys: string[] }>();
	searches.forEach(({ key }, index) => {
		for (const read of results[index].known.fresh) {
			const uid = String(read.job.uid);
			const entry = found.get(uid);
			if (entry) entry.keys.push(key);
			else found.set(uid, { read, keys: [key] });
		}
	});
	// A job sent now may wait unread in a part another search left for its final look (its head
	// passed the job's time without reading it, so it was not asked above). That search learns the
	// uid as gone: not counted until it reads the job, and not sent again then, even should the
	// searches that sent it be removed before.
	searches.forEach(({ key }, index) => {
		const watch = results[index].state.watch;
		if (!watch) return;
		const left = watch.pending.filter((part) => part.deferred);
		for (const [uid, { read, keys }] of found) {
			if (keys.includes(key) || watch.seen.has(uid) || !left.some((part) => read.createdMs >= part.fromMs && read.createdMs <= part.toMs)) continue;
			watch.seen.set(uid, read.createdMs);
			watch.gone.add(uid);
		}
	});
	const emit = [...found.values()].map((entry) => entry.read).sort(compareNewestFirst);
	const readers = results.map((r) => r.reader);
	const remaining = readers.map((r) => r.remainingMicrocents).filter((m): m is number => m !== undefined);
	return {
		emit: emit.map((read) => read.job),
		foundBy: new Map([...found].map(([uid, entry]) => [uid, entry.keys])),
		state: {
			searches: Object.fromEntries(searches.map(({ key }, index) => [key, results[index].state])),
			requests: budget.toLedger(),
			...(trouble ? { trouble } : {}),
			lastPollMs: startMs,
		},
		reader: {
			rows: readers.reduce((sum, r) => sum + r.rows, 0),
			requests,
			consumedMicrocents: readers.reduce((sum, r) => sum + r.consumedMicrocents, 0),
			...(remaining.length > 0 ? { remainingMicrocents: Math.min(...remaining) } : {}),
			...(firstFailure ? { interruptedBy: firstFailure } : {}),
			warnings: readers.flatMap((r) => r.warnings),
		},
		budget,
		firstPoll: results.some((r) => r.firstPoll),
		learning: results.some((r) => r.learning),
		passDone: results.some((r) => r.passDone),
		late: results.reduce((sum, r) => sum + r.known.late, 0),
		gone: results.reduce((sum, r) => sum + r.known.goneFound, 0),
		reposts: results.reduce((sum, r) => sum + r.known.reposts, 0),
		capped: results.reduce((sum, r) => sum + r.capped, 0),
		...(failure ? { failure } : {}),
	};
}

/** The key of a trigger's only search, when it has one. */
export const ONE_SEARCH = 'search';

/** One poll of a trigger with one search (the cycle the properties and the bench drive). */
export async function runCycle(previous: TriggerState | undefined, settings: CycleSettings, deps: CycleDeps): Promise<CycleOutcome> {
	return await runSearches(previous, [{ key: ONE_SEARCH, fetchPage: deps.fetchPage }], settings, deps);
}
