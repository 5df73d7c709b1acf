import type { IDataObject } from 'n8n-workflow';

import { compareNewestFirst, type FetchPage, type Reader } from '../paging/reader';
import { RequestBudget, freshLedger } from './requests';
import { SearchRun } from './search';
import { jobsByUid } from './searches';
import { isDropped, type DroppedState, type SearchState, type TriggerState, type Trouble } from './state';
import type { CycleDeps, CycleSettings, FailureKind, SearchResult } from './types';
import { settledOf } from './known';
import { FAULT_PAUSE_MS, INDEX_CLOCK_DOUBT_MS, MEMORY_MS, POLL_TIME_SHARE, SCHEDULED_POLL_LATE_MS } from './tunables';

export type { CycleDeps, CycleSettings, FailureKind } from './types';

/** A poll of every search: their counts summed, `firstPoll` and `learning` where any search's is. */
export interface CycleOutcome extends Pick<SearchResult, 'firstPoll' | 'learning' | 'late' | 'reposts' | 'capped'> {
	/** New jobs, newest first, each once however many searches found it. */
	emit: IDataObject[];
	/** For each job sent, by uid: the keys of the searches that found it in this poll, in the order given. */
	foundBy: Map<string, string[]>;
	/** The state to keep, once the jobs are safely handed over. */
	state: TriggerState;
	/** What every search's readers read in this poll, together. */
	reader: Pick<Reader, 'rows' | 'requests' | 'consumedMicrocents' | 'remainingMicrocents' | 'warnings'>;
	budget: RequestBudget;
	/** The failure that ended a search's reading (`key`), and what it means: a lasting one before a passing one; `everySearch`: the credential's (it would meet every search where a poll asked only some), or all met its kind and none read. */
	failure?: { error: Error; kind: FailureKind; key: string; everySearch?: boolean };
}

const sum = <T>(items: T[], of: (item: T) => number) => items.reduce((total, item) => total + of(item), 0);

/** One poll of every search (by key, searches.ts) on one request budget (DESIGN.md): new jobs first, then final looks, then young looks; each job sent once. */
export async function runSearches(
	previous: TriggerState | DroppedState | undefined,
	searches: { key: string; fetchPage: FetchPage }[],
	settings: CycleSettings,
	deps: Omit<CycleDeps, 'fetchPage'>,
): Promise<CycleOutcome> {
	const startMs = deps.now();
	const dropped = isDropped(previous);
	const kept = previous !== undefined && !isDropped(previous);
	const base: TriggerState = kept ? previous : { searches: {}, requests: freshLedger(startMs, settings, dropped ? previous.sentMs : []), polls: 0 };
	// A search added to a trigger that has polled already is marked so: Emit on First Poll is for the trigger's first activation.
	const newSearch: SearchState = { activatedMs: startMs - (settings.unkeptActivationWithinMs ?? 0), ...(dropped ? { droppedMs: startMs } : {}), ...(kept ? { added: true } : {}) };
	const budget = new RequestBudget(base.requests, settings, deps, startMs + settings.pollTimeMs * POLL_TIME_SHARE);
	// A removed search's jobs stay sent: another search may read one only later.
	const removedSent = new Map(base.removedSent);
	for (const [key, { watch }] of Object.entries(base.searches)) {
		if (watch && !searches.some((search) => search.key === key)) for (const [uid, ms] of watch.seen) if (!watch.learned.has(uid)) removedSent.set(uid, ms);
	}
	// A uid another search holds is sent already, unless it only learned it as history (a search added later does).
	const knownBy = (key: string) => (uid: string) =>
		removedSent.has(uid) || Object.entries(base.searches).some(([other, s]) => other !== key && s.watch?.seen.has(uid) === true && !s.watch.learned.has(uid));
	const runs = searches.map(({ key, fetchPage }) => new SearchRun(key, base.searches[key] ?? newSearch, settings, { ...deps, fetchPage }, budget, knownBy(key)));
	// Uids are kept a day below where every search has read to the end, or will read (one whose activation failed for a day
	// sends what was posted since): none sends again what another sent and forgot, nor a repost of it within a day.
	const readsFromMs = ({ watch, activatedMs }: SearchState) => (watch ? settledOf(watch) : activatedMs - INDEX_CLOCK_DOUBT_MS - settings.lateWindowMs) - MEMORY_MS;
	const keepFromMs = Math.min(...searches.map(({ key }) => readsFromMs(base.searches[key] ?? newSearch)));
	// The searches take turns at going first, so a budget that runs out does not always miss the same one.
	const turn = runs.length > 0 ? base.polls % runs.length : 0;
	const inTurn = [...runs.slice(turn), ...runs.slice(0, turn)];
	const rowsRead = () => sum(runs, (run) => run.reader.rows);
	// Activation reads send their first requests together: the index shows each search the same jobs.
	const activating = inTurn.filter((run) => run.activating);
	await Promise.all(activating.map(async (run) => await run.readNew(0)));
	const reading = inTurn.filter((r) => !activating.includes(r));
	const rowsBeforeOverdue = rowsRead();
	for (const run of reading) await run.overdueLook(reading.length);
	// Max Jobs per Poll bounds the new jobs' reads of all searches together, activation's too; overdue looks' rows are of their other looks.
	const overdueRows = rowsRead() - rowsBeforeOverdue;
	// Where one request is all a search gets, its turns at going first alternate between its head and the parts it left:
	// the head's request would take it at every poll, and the rest of a cut-short head read would never be read.
	const partsFirst = Math.floor(base.polls / Math.max(1, runs.length)) % 2 === 1;
	for (const run of reading) await run.readNew(settings.maxJobsPerPoll - (rowsRead() - overdueRows), partsFirst);
	for (const [i, run] of inTurn.entries()) await run.finalLooks(1 / (inTurn.length - i));
	for (const [i, run] of inTurn.entries()) await run.youngLooks(1 / (inTurn.length - i));

	const results = runs.map((run) => run.result(keepFromMs));
	const failures = results.flatMap(({ reader: { interruptedBy: error }, came }, i) => (error ? [{ error, kind: deps.classify(error), key: runs[i].key, came }] : []));
	// A streak met again only after a pause in the polls (the workflow unpublished, n8n down) starts over: a Publish then
	// would be refused for faults this run has not seen last.
	const pausedPolls = startMs - base.requests.atMs > (settings.longestIntervalMs ?? settings.intervalMs) + SCHEDULED_POLL_LATE_MS;
	const carried = (t?: Trouble) => (pausedPolls ? undefined : t);
	// The trouble streak ends once a page came through; a poll that got none for a passing failure starts or continues it.
	const passing = failures.some((f) => f.kind.kind !== 'lasting');
	const trouble: Trouble | undefined = results.some((r) => r.came) ? undefined : passing ? (carried(base.trouble) ?? { sinceMs: startMs }) : carried(base.trouble);
	if (failures.some((f) => f.kind.kind === 'passing')) {
		budget.pause(Math.min(10 * FAULT_PAUSE_MS, Math.max(FAULT_PAUSE_MS, trouble ? (startMs - trouble.sinceMs) / 2 : 0)));
	}
	// With several searches each has a streak of its own, where others may read: a 5xx or timeout that left it no page starts
	// or continues it, a page of its own ends it (a 429 is the key's, not the query's: it does neither).
	const failing = (f: (typeof failures)[number]) => f.kind.kind === 'passing' && !f.came;
	const searchTroubles = runs.map((run, i): Trouble | undefined => {
		const before = carried(base.searches[run.key]?.trouble);
		if (results[i].came || runs.length === 1) return undefined;
		return failures.some((f) => f.key === run.key && failing(f)) ? (before ?? { sinceMs: startMs }) : before;
	});
	// A lasting failure first, then a search's own fault, the longest first: the one a report is due for.
	const sinceOf = (key: string) => searchTroubles[runs.findIndex((run) => run.key === key)]?.sinceMs ?? Infinity;
	const failure = failures.find((f) => f.kind.kind === 'lasting') ?? failures.filter(failing).sort((a, b) => sinceOf(a.key) - sinceOf(b.key))[0] ?? failures[0];

	const fresh = searches.map(({ key }, index) => ({ key, jobs: results[index].fresh }));
	const found = jobsByUid(fresh, (read) => String(read.job.uid));
	for (const [uid, { job, keys }] of found) for (const run of runs) if (!keys.includes(run.key)) run.learnSentElsewhere(uid, job.createdMs);
	const sent = [...found.values()].map((entry) => entry.job).sort(compareNewestFirst);
	for (const [uid, ms] of removedSent) if (ms < keepFromMs) removedSent.delete(uid);
	const readers = results.map((r) => r.reader);
	const remaining = readers.map((r) => r.remainingMicrocents).filter((m): m is number => m !== undefined);
	return {
		emit: sent.map((read) => read.job),
		foundBy: new Map([...found].map(([uid, entry]) => [uid, entry.keys])),
		state: {
			searches: Object.fromEntries(searches.map(({ key }, index) => [key, { ...results[index].state, trouble: searchTroubles[index] }])),
			requests: budget.toLedger(),
			...(trouble ? { trouble } : {}),
			// Counted where a request went: where one goes every other poll, each search still has its turn.
			polls: base.polls + (budget.taken > 0 ? 1 : 0),
			...(removedSent.size > 0 ? { removedSent } : {}),
		},
		reader: {
			rows: sum(results, (r) => r.reader.rows),
			requests: sum(results, (r) => r.reader.requests),
			consumedMicrocents: sum(results, (r) => r.reader.consumedMicrocents),
			...(remaining.length > 0 ? { remainingMicrocents: Math.min(...remaining) } : {}),
			warnings: readers.flatMap((r) => r.warnings),
		},
		budget,
		firstPoll: results.some((r) => r.firstPoll),
		learning: results.some((r) => r.learning),
		late: sum(results, (r) => r.late),
		reposts: sum(results, (r) => r.reposts),
		capped: sum(results, (r) => r.capped),
		...(failure ? { failure: { ...failure, everySearch: (failure.kind.kind === 'lasting' && failure.kind.ofCredential === true) || (failures.length === runs.length && failures.every((f) => f.kind.kind === failure.kind.kind && !f.came)) } } : {}),
	};
}
