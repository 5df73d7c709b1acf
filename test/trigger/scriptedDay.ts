import axios from 'axios';
import type { INodeParameters } from 'n8n-workflow';

import { startServer, type Job, type Plan, type RunningServer, type StartServerOptions } from '../../server';
import { seededRandom } from '../../server/random';
import { createPoller, type Poller } from '../harness/poll';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const ROW_PRICE_MICROCENTS = 579_000;
export const DAY_START = Date.parse('2026-11-20T00:00:00.000Z');
/** Jobs first shown this close to the end of a run are not counted as missed yet (unless a run says otherwise). */
const SETTLE_MS = 30 * MINUTE;

/** The only time source: jest's fake Date in tests, a patched Date.now in the bench. */
export interface TimeControl {
	set(ms: number): void;
}

/** The trigger's filter in every scripted run: clients with a verified payment method. */
export const VERIFIED_CLIENTS: INodeParameters = { clientFilters: { clientPaymentMethodVerified: true } };
export const isVerifiedClient = (job: Job) => job.client.paymentMethodVerified;
/** The same filter on the wire, for the baseline workflow's HTTP calls. */
const VERIFIED_CLIENTS_WIRE = { 'client.paymentMethodVerified': true };

export interface Harnessed {
	server: RunningServer;
	accountId: string;
	key: string;
	poller: Poller;
}

/** The key the trigger uses, and how n8n runs it. */
export interface HarnessedOptions {
	/** Default 'pro' (60 requests a minute); 'free' allows 10. */
	plan?: Plan;
	/** As newer n8n's getPollBudgetMs (see createPoller). */
	pollBudgetMs?: number;
	/** The workflow's time zone, where Poll Times are read (see createPoller). */
	timezone?: string;
}

/** A live reference server whose clock is Date.now, a funded account (Pro by default) and a trigger polling it. */
export async function startHarnessed(
	time: TimeControl,
	startMs: number,
	parameters: INodeParameters,
	server: StartServerOptions = {},
	options: HarnessedOptions = {},
): Promise<Harnessed> {
	time.set(startMs);
	const running = await startServer({ clock: { now: () => Date.now() }, jobs: 40, faults: true, ...server });
	const account = await running.admin.createAccount({ plan: options.plan ?? 'pro', poolMicrocents: 10 ** 13 });
	const poller = createPoller({
		credentials: { apiKey: account.key, baseUrl: running.url },
		parameters,
		...(options.pollBudgetMs !== undefined ? { pollBudgetMs: options.pollBudgetMs } : {}),
		timezone: options.timezone,
	});
	return { server: running, accountId: account.id, key: account.key, poller };
}

/** Poll Times "Every n Minutes", as the editor writes it. */
export const everyMinutes = (n: number): INodeParameters =>
	n === 1 ? { pollTimes: { item: [{ mode: 'everyMinute' }] } } : { pollTimes: { item: [{ mode: 'everyX', value: n, unit: 'minutes' }] } };

/** The most requests of `log` (times in ms) in any 60 seconds. */
export function peakPerMinute(times: number[]): number {
	const sorted = [...times].sort((a, b) => a - b);
	let peak = 0;
	for (let i = 0, j = 0; i < sorted.length; i++) {
		while (sorted[i] - sorted[j] >= MINUTE) j++;
		peak = Math.max(peak, i - j + 1);
	}
	return peak;
}

export interface DayOptions {
	time: TimeControl;
	seed: number;
	hours: number;
	/**
	 * Poll interval range in minutes, drawn at random per poll. Poll Times is "Every n Minutes" for
	 * the shortest of them (the trigger paces itself by it) unless `parameters` sets it.
	 */
	pollEvery: [number, number];
	parameters: INodeParameters;
	matches: (job: Job) => boolean;
	live: NonNullable<StartServerOptions['live']>;
	/** Jobs added by hand at a moment of the day (e.g. a burst sharing one millisecond). */
	script?: (h: Harnessed, nowMs: number, random: () => number) => void;
	/** More options for the reference server (e.g. rate limits). */
	server?: StartServerOptions;
	/** What n8n gives each poll (getPollBudgetMs); n8n-core's own when unset (2.41: 5 minutes; 2.8: none). */
	pollBudgetMs?: number;
	/** Runs before poll `index`; a test arms faults here. */
	beforePoll?: (h: Harnessed, index: number) => Promise<void>;
	/** Also run "Schedule Trigger + search the last 24 hours + Remove Duplicates" at the same times (verified-client filter). */
	baseline?: boolean;
	/**
	 * Jobs first shown this close to the end are not counted as missed yet (default SETTLE_MS): a
	 * late tie may wait for its final look, past the Late Window.
	 */
	settleMs?: number;
}

export interface PollerFigures {
	/** uids in the order they were delivered, over all polls. */
	delivered: string[];
	rowsPaid: number;
	requests: number;
	/** Delivered on the first poll at which the index showed them. */
	onFirstPoll: number;
	/** The most polls between the first poll at which the index showed a job and the one that sent it. */
	worstDelayPolls: number;
	/** Shown after activation, still shown at the end, never delivered. */
	missed: string[];
	duplicates: string[];
}

export interface DayResult {
	h: Harnessed;
	polls: number;
	trigger: PollerFigures;
	baseline?: PollerFigures;
	/** Matching jobs shown after activation (at least SETTLE_MS before the end) and still shown at the end. */
	expected: string[];
	/** Polls that failed their execution, and whether they left what the trigger knows of the index (`watch`) as it was. */
	failures: { index: number; atMs: number; error: Error; watchUnchanged: boolean }[];
	/** Polls that logged a warning (a passing failure ridden out, say), with the warnings. */
	warned: { index: number; atMs: number; messages: string[] }[];
	maxStateBytes: number;
}

const duplicatesOf = (uids: string[]) => uids.filter((uid, i) => uids.indexOf(uid) !== i);

/** What the trigger knows of the index: every search's stored watch, as text. */
const watches = (poller: Poller) =>
	JSON.stringify(Object.values((poller.staticData().searches ?? {}) as Record<string, { watch?: unknown }>).map((search) => search.watch));

/** One simulated day of postings and polls; the trigger runs in real n8n-core against the server. */
export async function runScriptedDay(options: DayOptions): Promise<DayResult> {
	const random = seededRandom(options.seed);
	const [lo, hi] = options.pollEvery;
	const pollTimes = options.parameters.pollTimes === undefined ? everyMinutes(lo) : {};
	const h = await startHarnessed(options.time, DAY_START, { ...pollTimes, ...options.parameters }, { seed: options.seed, live: options.live, ...options.server }, {
		...(options.pollBudgetMs !== undefined ? { pollBudgetMs: options.pollBudgetMs } : {}),
	});
	const matchingVisible = () => h.server.admin.visibleJobs().filter(options.matches);
	const startBalance = h.server.admin.balance(h.accountId).totalMicrocents;
	const atActivation = new Set(matchingVisible().map((j) => j.uid));
	/** uid → index of the first poll at which the index showed it, and when that was. */
	const firstShownAt = new Map<string, number>();
	const firstShownMs = new Map<string, number>();
	const delivered: string[] = [];
	const deliveredAt = new Map<string, number>();
	const failures: DayResult['failures'] = [];
	const warned: DayResult['warned'] = [];
	let maxStateBytes = 0;

	const baseline = options.baseline ? await startBaseline(h) : undefined;
	let nowMs = DAY_START;
	let index = 0;
	const first = await h.poller.poll();
	if (first.error) throw first.error;
	for (const item of first.items) delivered.push(String(item.json.uid));
	await baseline?.poll(0);

	const endMs = DAY_START + options.hours * HOUR;
	while (nowMs < endMs) {
		nowMs = Math.min(endMs, nowMs + Math.round((lo + random() * (hi - lo)) * MINUTE));
		// A poll's waits (the request pacing, a 429) move the clock: it never goes back.
		options.time.set(Math.max(nowMs, Date.now()));
		options.script?.(h, nowMs, random);
		index++;
		await options.beforePoll?.(h, index);
		for (const job of matchingVisible()) {
			if (atActivation.has(job.uid) || firstShownAt.has(job.uid)) continue;
			firstShownAt.set(job.uid, index);
			firstShownMs.set(job.uid, nowMs);
		}

		const before = watches(h.poller);
		const logsBefore = h.poller.logs.length;
		const outcome = await h.poller.poll();
		const after = JSON.stringify(h.poller.staticData());
		maxStateBytes = Math.max(maxStateBytes, after.length);
		await baseline?.poll(index);
		const warnings = h.poller.logs.slice(logsBefore).filter((l) => l.level === 'warn').map((l) => l.message);
		if (warnings.length > 0) warned.push({ index, atMs: nowMs, messages: warnings });
		if (outcome.error) {
			failures.push({ index, atMs: nowMs, error: outcome.error, watchUnchanged: before === watches(h.poller) });
			continue;
		}
		for (const item of outcome.items) {
			const uid = String(item.json.uid);
			delivered.push(uid);
			if (!deliveredAt.has(uid)) deliveredAt.set(uid, index);
		}
	}

	// A late job waits for the next check: one shown in the last half hour may still be on its way.
	const expected = matchingVisible()
		.map((j) => j.uid)
		.filter((uid) => !atActivation.has(uid) && (firstShownMs.get(uid) ?? Infinity) <= endMs - (options.settleMs ?? SETTLE_MS));
	const figures = (uids: string[], at: Map<string, number>, rowsPaid: number, requests: number): PollerFigures => {
		const got = new Set(uids);
		return {
			delivered: uids,
			rowsPaid,
			requests,
			onFirstPoll: [...at].filter(([uid, i]) => firstShownAt.get(uid) === i).length,
			worstDelayPolls: Math.max(0, ...[...at].map(([uid, i]) => i - (firstShownAt.get(uid) ?? i))),
			missed: expected.filter((uid) => !got.has(uid)),
			duplicates: duplicatesOf(uids),
		};
	};
	const rowsPaid = (startBalance - h.server.admin.balance(h.accountId).totalMicrocents) / ROW_PRICE_MICROCENTS;
	return {
		h,
		polls: index + 1,
		trigger: figures(delivered, deliveredAt, rowsPaid, h.server.admin.callLog(h.accountId).length),
		baseline: baseline && figures(baseline.delivered, baseline.deliveredAt, baseline.rows(), baseline.requests()),
		expected,
		failures,
		warned,
		maxStateBytes,
	};
}

/**
 * What users build today: a Schedule Trigger, an HTTP search of the last 24 hours (the service's
 * maximum of 10,000 rows) and Remove Duplicates across executions. Each poll is billed for every
 * row of the window; the count request with `limit: 1` reads what that costs without moving a
 * day's worth of JSON per poll, and the jobs it delivers are the window's new ones.
 */
async function startBaseline(h: Harnessed) {
	const account = await h.server.admin.createAccount({ plan: 'enterprise', poolMicrocents: 10 ** 13 });
	const seenBefore = new Set<string>();
	const delivered: string[] = [];
	const deliveredAt = new Map<string, number>();
	let rows = 0;
	let requests = 0;
	return {
		delivered,
		deliveredAt,
		rows: () => rows,
		requests: () => requests,
		async poll(index: number) {
			const response = await axios.post(
				`${h.server.url}/v1/search_jobs`,
				{ ...VERIFIED_CLIENTS_WIRE, searchPeriod: '24h', limit: 1 },
				{ headers: { authorization: `Bearer ${account.key}` } },
			);
			requests++;
			rows += Math.min(10_000, response.data.data.total as number);
			const windowStart = Date.now() - 24 * HOUR;
			for (const job of h.server.admin.visibleJobs()) {
				if (!isVerifiedClient(job) || Date.parse(job.createdAt) < windowStart || seenBefore.has(job.uid)) continue;
				seenBefore.add(job.uid);
				if (index === 0) continue; // the first execution's flood is what everything before activation is
				delivered.push(job.uid);
				deliveredAt.set(job.uid, index);
			}
		},
	};
}

/** Jest's fake timers, faking only Date: fastify, axios and n8n-core keep their real timers. */
export const FAKE_DATE_ONLY = {
	doNotFake: [
		'nextTick',
		'setImmediate',
		'setTimeout',
		'clearTimeout',
		'setInterval',
		'clearInterval',
		'queueMicrotask',
		'hrtime',
		'performance',
	],
} satisfies Parameters<typeof jest.useFakeTimers>[0];
