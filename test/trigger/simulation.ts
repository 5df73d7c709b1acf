import type { IDataObject } from 'n8n-workflow';

import type { FetchPage } from '../../nodes/JobSearch/paging/reader';
import { runSearches, type CycleSettings } from '../../nodes/JobSearch/trigger/cycle';
import { failureToReport } from '../../nodes/JobSearch/trigger/report';
import { readState, writeState, type DroppedState, type TriggerState } from '../../nodes/JobSearch/trigger/state';
import {
	DEFAULT_LATE_WINDOW_MINUTES,
	DEFAULT_MAX_JOBS_PER_POLL,
	DEFAULT_REQUESTS_PER_MINUTE,
} from '../../nodes/JobSearch/trigger/description';
import { MINUTE, ModelFailure, arrayIndex, classifyModelFailure, shownAt, standingAt, type IndexBehaviour, type IndexedJob } from './indexModel';
import { seededRandom } from '../../server/random';

/** The key of a simulated trigger's only search. */
export const ONE_SEARCH = 'search';

/**
 * The trigger's poll rules (runSearches and the failure policy, the same code the node runs) polled
 * along simulated days against index models, with what a user would measure: every job once, how
 * late, what it cost, and how the key's rate limit was treated.
 */

/** The trigger's defaults, as a new workflow has them, at Every Minute. */
export const defaultSettings = (over: Partial<CycleSettings> = {}): CycleSettings => ({
	lateWindowMs: DEFAULT_LATE_WINDOW_MINUTES * MINUTE,
	maxJobsPerPoll: DEFAULT_MAX_JOBS_PER_POLL,
	pollTimeMs: 48_000,
	intervalMs: MINUTE,
	requestsPerMinute: DEFAULT_REQUESTS_PER_MINUTE,
	...over,
});

/** n8n 2.8's poll time for Every n Minutes (80% of the interval, 30 s to 15 minutes); n8n 2.41's durable scheduler gives 36 s. */
export const pollTimeFor = (everyMinutes: number) => Math.min(15 * MINUTE, Math.max(30_000, everyMinutes * MINUTE * 0.8));

export interface SimTrigger {
	/** Every job of the index a search may meet (for several searches: their union). */
	jobs: IndexedJob[];
	/** Several searches in the trigger, each with the jobs its filters match; one search of all `jobs` when unset. */
	searches?: { key: string; jobs: IndexedJob[] }[];
	behaviour?: IndexBehaviour;
	settings: CycleSettings;
	everyMinutes: number;
	/** The first poll from this moment finds the state saved by another state version (as after an update). */
	dropStateAtMs?: number;
	/** Every other poll starts this many ms after its tick, as n8n's do by a few ms. */
	lateStartMs?: number;
	/** Each request takes a time drawn in this range (250 ms when unset); one the poll's end comes first in is cut there as a timeout, billed all the same. */
	answerMs?: [number, number];
}

/** The state as a version of the trigger with another state version finds it. */
function asAnotherVersion(state: TriggerState | undefined): TriggerState | DroppedState | undefined {
	const staticData: IDataObject = {};
	if (state) writeState(staticData, state);
	return readState({ ...JSON.parse(JSON.stringify(staticData)), version: 5 });
}

export interface SimFigures {
	polls: number;
	owed: number;
	delivered: number;
	duplicates: string[];
	lost: string[];
	rows: number;
	requests: number;
	rowsPerJob: number;
	requestsPerPoll: number;
	maxRequestsPerPoll: number;
	/** The most requests this trigger sent in any 60 seconds. */
	peakPerMinute: number;
	/** Of the jobs delivered, the share sent on the first poll at which the index showed them (a poll in an outage sees none). */
	firstPollShare: number;
	/** Minutes from the first poll at which the index showed a job to the poll that sent it. */
	worstDelayMinutes: number;
	/** That delay for every job delivered, in minutes. */
	delays: number[];
	/** The most minutes a job was sent after its posting's Late Window ended, less those the host was down (Lowest Cost's promise). */
	worstPastLateWindowMinutes: number;
	/** Polls that would be failed executions in n8n. */
	failedPolls: number;
	/** Polls whose reading a failure ended (a 429, a fault), failed or not. */
	interruptedPolls: number;
	finalState?: TriggerState;
}

/** A late job is sent at the latest by the final look of its part: a Late Window, a poll and some minutes after it was posted. */
const SETTLING_MS = 30 * MINUTE;

/** When a job shows where it stays: one posted again before its final look is sent by its new posting's at the latest. */
const settledShowingMs = (j: IndexedJob, lateWindowMs: number) =>
	j.repost && j.repost.atMs <= j.createdMs + lateWindowMs + SETTLING_MS ? Math.max(j.visibleMs, j.repost.createdMs) : j.visibleMs;

interface Running {
	spec: SimTrigger;
	index: { requests: { atMs: number }[]; rows: () => number };
	searches: { key: string; fetchPage: FetchPage }[];
	state?: TriggerState;
	stateDropped?: boolean;
	pollTimes: number[];
	deliveredAt: Map<string, number>;
	duplicates: string[];
	maxRequestsPerPoll: number;
	failedPolls: number;
	interruptedPolls: number;
}

/**
 * Virtual time: every wait (a request's round trip, the trigger's own pacing) is a timer, and the
 * clock jumps from one timer to the next. Several triggers' polls then interleave as they would
 * in n8n, where polls of different workflows run at once.
 */
class VirtualTime {
	private timers: { atMs: number; seq: number; resolve: () => void }[] = [];
	private seq = 0;
	constructor(readonly clock: { ms: number }) {}

	async sleep(ms: number): Promise<void> {
		await new Promise<void>((resolve) => this.timers.push({ atMs: this.clock.ms + Math.max(0, ms), seq: this.seq++, resolve }));
	}

	/** Runs until no timer is left: settles what can run now, then moves the clock to the next timer. */
	async run(): Promise<void> {
		for (;;) {
			await new Promise<void>((resolve) => setImmediate(resolve));
			if (this.timers.length === 0) return;
			this.timers.sort((a, b) => a.atMs - b.atMs || a.seq - b.seq);
			const next = this.timers.shift()!;
			this.clock.ms = Math.max(this.clock.ms, next.atMs);
			next.resolve();
		}
	}
}

/**
 * Polls every trigger from `fromMs` to `toMs` (n8n's clock) at its interval, all at once on one
 * virtual clock: triggers that share a key meet each other's requests in its rate window. Each
 * request takes `requestMs` (or a trigger's `answerMs`). A tick that comes while the trigger's last poll still runs is
 * skipped, as the poll lock makes n8n's overlapping tick send nothing.
 */
export async function simulate(triggers: SimTrigger[], fromMs: number, toMs: number, requestMs = 250): Promise<SimFigures[]> {
	const clock = { ms: fromMs };
	const time = new VirtualTime(clock);
	// When each trigger's poll under way began: the transport cuts its requests at that plus the poll's time.
	const pollStartMs = new Map<SimTrigger, number>();
	const runs: Running[] = triggers.map((spec) => {
		const requests: { atMs: number }[] = [];
		const answerRandom = seededRandom((spec.behaviour?.seed ?? 1) + 104_729);
		const indexes = (spec.searches ?? [{ key: ONE_SEARCH, jobs: spec.jobs }]).map(({ key, jobs }) => {
			const index = arrayIndex(jobs, clock, spec.behaviour);
			const fetchPage: FetchPage = async (request) => {
				requests.push({ atMs: clock.ms });
				const [minMs, maxMs] = spec.answerMs ?? [requestMs, requestMs];
				const takesMs = Math.round(minMs + answerRandom() * (maxMs - minMs));
				const answer = await index.fetchPage(request).catch((error: Error) => error);
				const leftMs = pollStartMs.get(spec)! + spec.settings.pollTimeMs - clock.ms;
				await time.sleep(Math.min(takesMs, Math.max(0, leftMs)));
				if (takesMs > leftMs) throw new ModelFailure('timeout at the poll\'s end (billed)', { kind: 'passing' });
				if (answer instanceof Error) throw answer;
				return answer;
			};
			return { key, index, fetchPage };
		});
		const rows = () => indexes.reduce((sum, { index }) => sum + index.rows(), 0);
		return {
			spec,
			index: { requests, rows },
			searches: indexes.map(({ key, fetchPage }) => ({ key, fetchPage })),
			pollTimes: [],
			deliveredAt: new Map(),
			duplicates: [],
			maxRequestsPerPoll: 0,
			failedPolls: 0,
			interruptedPolls: 0,
		};
	});
	const loop = async (run: Running) => {
		let busyUntil = -Infinity;
		for (let tick = fromMs, k = 0; tick <= toMs; tick += run.spec.everyMinutes * MINUTE, k++) {
			const startMs = tick + (k % 2) * (run.spec.lateStartMs ?? 0);
			if (startMs > clock.ms) await time.sleep(startMs - clock.ms);
			if (clock.ms < busyUntil) continue;
			const pollMs = clock.ms;
			pollStartMs.set(run.spec, pollMs);
			run.pollTimes.push(pollMs);
			const before = run.index.requests.length;
			const rowsBefore = run.index.rows();
			const drop = run.spec.dropStateAtMs !== undefined && pollMs >= run.spec.dropStateAtMs && !run.stateDropped;
			if (drop) run.stateDropped = true;
			const out = await runSearches(drop ? asAnotherVersion(run.state) : run.state, run.searches, run.spec.settings, {
				now: () => clock.ms,
				sleep: async (ms) => await time.sleep(ms),
				classify: classifyModelFailure,
			});
			busyUntil = clock.ms;
			if (process.env.TRACE_SIM && run === runs[0]) {
				const w = Object.values(out.state.searches)[0]?.watch;
				const hm = (ms: number) => new Date(ms).toISOString().slice(11, 19);
				console.log(hm(pollMs), `req ${run.index.requests.length - before} rows ${run.index.rows() - rowsBefore} emit ${out.emit.length} fail ${out.failure?.kind.kind ?? '-'}`, w ? `head ${hm(w.headMs)} final ${hm(w.finalMs)} floor ${hm(w.floorMs)} young ${w.youngMs.map(hm).join(',')} pending ${w.pending.length} seen ${w.seen.size}` : '', `share ${out.state.requests.share.toFixed(2)} tokens ${out.state.requests.tokens.toFixed(1)}`);
			}
			if (failureToReport(out, clock.ms)) run.failedPolls++;
			if (out.failure) run.interruptedPolls++;
			run.maxRequestsPerPoll = Math.max(run.maxRequestsPerPoll, run.index.requests.length - before);
			run.state = out.state;
			for (const job of out.emit) {
				const uid = String(job.uid);
				if (run.deliveredAt.has(uid)) run.duplicates.push(uid);
				else run.deliveredAt.set(uid, pollMs);
			}
		}
	};
	const done = Promise.all(runs.map(loop));
	await time.run();
	await done;
	return runs.map((run) => figuresOf(run, fromMs, toMs));
}

function figuresOf(run: Running, fromMs: number, toMs: number): SimFigures {
	const skewMs = run.spec.behaviour?.skewMs ?? 0;
	const lateWindowMs = run.spec.settings.lateWindowMs;
	const { pollTimes, deliveredAt } = run;
	const outages = run.spec.behaviour?.outages ?? [];
	const outageAt = (ms: number) => outages.some((o) => ms >= o.fromMs && ms < o.toMs);
	// The time in (fromMs, toMs) some outage covers, counted once where outages overlap.
	const downMs = (fromMs: number, toMs: number) => {
		let down = 0;
		let coveredToMs = fromMs;
		for (const o of [...outages].sort((a, b) => a.fromMs - b.fromMs)) {
			const startMs = Math.max(coveredToMs, o.fromMs);
			const endMs = Math.min(toMs, o.toMs);
			if (endMs > startMs) down += endMs - startMs;
			coveredToMs = Math.max(coveredToMs, Math.min(toMs, o.toMs));
		}
		return down;
	};
	// Owed: first shown after activation, within the Late Window of its posting, shown at some
	// poll, still shown at the end, and shown early enough that its final look came before the
	// end (what shows later may still be on its way).
	const owed = run.spec.jobs.filter(
		(j) =>
			j.visibleMs + skewMs > fromMs &&
			j.visibleMs - j.createdMs <= lateWindowMs &&
			shownAt(j, toMs - skewMs) &&
			settledShowingMs(j, lateWindowMs) + skewMs <= toMs - lateWindowMs - SETTLING_MS - run.spec.everyMinutes * MINUTE &&
			pollTimes.some((p) => shownAt(j, p - skewMs)),
	);
	let firstPoll = 0;
	let worst = 0;
	let pastLateWindow = 0;
	const delays: number[] = [];
	const lost: string[] = [];
	for (const job of owed) {
		const at = deliveredAt.get(job.uid);
		if (at === undefined) {
			lost.push(job.uid);
			continue;
		}
		// A poll in an outage sees nothing (every request fails): the first that could see a job is one the host answered.
		const first = pollTimes.find((p) => shownAt(job, p - skewMs) && p >= job.visibleMs + skewMs && !outageAt(p)) ?? at;
		if (at <= first) firstPoll++;
		const postedMs = job.repost && job.repost.atMs <= at - skewMs ? job.repost.createdMs : job.createdMs;
		// Lowest Cost's promise: the time past the Late Window's end, less what of it the host was down (no reader can read then).
		const lateWindowEndMs = postedMs + skewMs + lateWindowMs;
		pastLateWindow = Math.max(pastLateWindow, (at - lateWindowEndMs - downMs(lateWindowEndMs, at)) / MINUTE);
		worst = Math.max(worst, (at - first) / MINUTE);
		// TRACE_WORST=1: every job sent more than 16 minutes after the first poll that could see it.
		if (process.env.TRACE_WORST && (at - first) / MINUTE > 16) console.log('late', job.uid, 'posted', new Date(job.createdMs).toISOString(), 'shown', new Date(job.visibleMs).toISOString(), 'sent', new Date(at).toISOString());
		delays.push((at - first) / MINUTE);
	}
	const times = run.index.requests.map((r) => r.atMs).sort((a, b) => a - b);
	let peak = 0;
	for (let i = 0, j = 0; i < times.length; i++) {
		while (times[i] - times[j] >= MINUTE) j++;
		peak = Math.max(peak, i - j + 1);
	}
	const delivered = deliveredAt.size;
	return {
		polls: pollTimes.length,
		owed: owed.length,
		delivered,
		duplicates: run.duplicates,
		lost,
		rows: run.index.rows(),
		requests: run.index.requests.length,
		rowsPerJob: run.index.rows() / Math.max(1, delivered),
		requestsPerPoll: run.index.requests.length / Math.max(1, pollTimes.length),
		maxRequestsPerPoll: run.maxRequestsPerPoll,
		peakPerMinute: peak,
		firstPollShare: firstPoll / Math.max(1, owed.length - lost.length),
		worstDelayMinutes: worst,
		delays,
		worstPastLateWindowMinutes: pastLateWindow,
		failedPolls: run.failedPolls,
		interruptedPolls: run.interruptedPolls,
		...(run.state ? { finalState: run.state } : {}),
	};
}

/**
 * What users build today, on the same index and at the same poll times: a Schedule Trigger, a
 * search of the last 24 hours (the service's maximum of 10,000 rows) and Remove Duplicates across
 * executions. Each poll pays for every row of the day; its first execution only learns. A job is
 * delivered by the first poll that shows it within its day. The rows a poll pays are counted at
 * up to 400 polls spread over the run and scaled to all of them (the count is the same shape at
 * every poll; counting it at all of a busy index's 4,320 polls would take minutes).
 */
export function baselineFigures(jobs: IndexedJob[], fromMs: number, toMs: number, everyMinutes: number, skewMs = 0): SimFigures {
	const dayMs = 24 * 60 * MINUTE;
	const pollTimes: number[] = [];
	for (let t = fromMs; t <= toMs; t += everyMinutes * MINUTE) pollTimes.push(t);
	const deliveredAt = new Map<string, number>();
	for (const job of jobs) {
		const first = Math.max(0, Math.ceil((job.visibleMs + skewMs - fromMs) / (everyMinutes * MINUTE)));
		if (first <= 0 || first >= pollTimes.length) continue;
		const at = pollTimes[first];
		const standing = standingAt(job, at - skewMs);
		if (standing !== undefined && standing >= at - skewMs - dayMs) deliveredAt.set(job.uid, at);
	}
	const step = Math.max(1, Math.floor(pollTimes.length / 400));
	let counted = 0;
	let sampled = 0;
	for (let i = 0; i < pollTimes.length; i += step) {
		const indexMs = pollTimes[i] - skewMs;
		let matches = 0;
		for (const job of jobs) {
			const at = standingAt(job, indexMs);
			if (at !== undefined && at >= indexMs - dayMs) matches++;
		}
		counted += Math.min(10_000, matches);
		sampled++;
	}
	const rows = Math.round((counted / sampled) * pollTimes.length);
	const run: Running = {
		spec: { jobs, settings: defaultSettings(), everyMinutes, behaviour: { skewMs } },
		index: { rows: () => rows, requests: pollTimes.map((atMs) => ({ atMs })) },
		searches: [],
		pollTimes,
		deliveredAt,
		duplicates: [],
		maxRequestsPerPoll: 1,
		failedPolls: 0,
		interruptedPolls: 0,
	};
	return figuresOf(run, fromMs, toMs);
}
