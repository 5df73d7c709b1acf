import type { INodeParameters } from 'n8n-workflow';

import { startServer, type Job, type RunningServer, type StartServerOptions } from '../../server';
import { seededRandom } from '../../server/random';
import { createPoller, type Poller } from '../harness/poll';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const ROW_PRICE_MICROCENTS = 579_000;
export const DAY_START = Date.parse('2026-11-20T00:00:00.000Z');

/** The only time source: jest's fake Date in tests, a patched Date.now in the bench. */
export interface TimeControl {
	set(ms: number): void;
}

/** The trigger's filter in every scripted run: clients with a verified payment method. */
export const VERIFIED_CLIENTS: INodeParameters = { clientFilters: { clientPaymentMethodVerified: true } };
export const isVerifiedClient = (job: Job) => job.client.paymentMethodVerified;

export interface Harnessed {
	server: RunningServer;
	accountId: string;
	key: string;
	poller: Poller;
}

/** A live reference server whose clock is Date.now, a funded Pro account and a trigger polling it. */
export async function startHarnessed(
	time: TimeControl,
	startMs: number,
	parameters: INodeParameters,
	server: StartServerOptions = {},
): Promise<Harnessed> {
	time.set(startMs);
	const running = await startServer({ clock: { now: () => Date.now() }, jobs: 40, faults: true, ...server });
	const account = await running.admin.createAccount({ plan: 'pro', poolMicrocents: 10 ** 13 });
	const poller = createPoller({ credentials: { apiKey: account.key, baseUrl: running.url }, parameters });
	return { server: running, accountId: account.id, key: account.key, poller };
}

export interface DayOptions {
	time: TimeControl;
	seed: number;
	hours: number;
	/** Poll interval range in minutes, drawn at random per poll. */
	pollEvery: [number, number];
	overlapMinutes: number;
	parameters: INodeParameters;
	matches: (job: Job) => boolean;
	live: { postingsPerHour: number; minLagMs: number; maxLagMs: number };
	/** Jobs added by hand at a moment of the day (e.g. a burst sharing one millisecond). */
	script?: (h: Harnessed, nowMs: number, random: () => number) => void;
	/** More options for the reference server (e.g. rate limits). */
	server?: StartServerOptions;
	/** Runs before poll `index`; a test arms faults here. */
	beforePoll?: (h: Harnessed, index: number) => Promise<void>;
}

export interface DayResult {
	h: Harnessed;
	/** uids in the order the trigger emitted them, over all polls. */
	emitted: string[];
	/** Matching jobs that became visible after activation and by the last poll. */
	expected: string[];
	rowsPaid: number;
	/** An upper bound, computed outside the trigger, of rows a correct overlap re-read may repeat. */
	overlapBound: number;
	/** What polling a fixed 24h window at the same times would have paid, in rows. */
	naiveRows: number;
	polls: number;
	failures: { index: number; error: Error; stateUnchanged: boolean }[];
	maxStateBytes: number;
}

/** One simulated day of postings and polls; the trigger runs in real n8n-core against the server. */
export async function runScriptedDay(options: DayOptions): Promise<DayResult> {
	const random = seededRandom(options.seed);
	const h = await startHarnessed(options.time, DAY_START, { ...options.parameters }, { seed: options.seed, live: options.live, ...options.server });
	const overlapMs = options.overlapMinutes * MINUTE;
	const matchingVisible = () => h.server.admin.visibleJobs().filter(options.matches);
	const createdMs = (job: Job) => Date.parse(job.createdAt);

	const startBalance = h.server.admin.balance(h.accountId).totalMicrocents;
	const atActivation = new Set(matchingVisible().map((j) => j.uid));
	// uid → createdAt of jobs the trigger has legitimately read (seed window, then emitted ones).
	const known = new Map(matchingVisible().filter((j) => createdMs(j) >= DAY_START - overlapMs).map((j) => [j.uid, createdMs(j)]));
	let overlapBound = known.size;
	let naiveRows = 0;
	const emitted: string[] = [];
	const failures: DayResult['failures'] = [];
	let maxStateBytes = 0;
	let lastGoodPollMs = DAY_START;
	let nowMs = DAY_START;
	let index = 0;

	const first = await h.poller.poll();
	if (first.error) throw first.error;
	emitted.push(...first.items.map((i) => String(i.json.uid)));

	const endMs = DAY_START + options.hours * HOUR;
	while (nowMs < endMs) {
		const [lo, hi] = options.pollEvery;
		nowMs = Math.min(endMs, nowMs + Math.round((lo + random() * (hi - lo)) * MINUTE));
		options.time.set(nowMs);
		options.script?.(h, nowMs, random);
		index++;
		await options.beforePoll?.(h, index);

		const visible = matchingVisible();
		naiveRows += Math.min(10_000, visible.filter((j) => createdMs(j) >= nowMs - 24 * HOUR).length);
		const before = JSON.stringify(h.poller.staticData());
		const outcome = await h.poller.poll();
		const after = JSON.stringify(h.poller.staticData());
		maxStateBytes = Math.max(maxStateBytes, after.length);
		if (outcome.error) {
			failures.push({ index, error: outcome.error, stateUnchanged: before === after });
			continue;
		}
		for (const ms of known.values()) if (ms >= lastGoodPollMs - overlapMs) overlapBound++;
		for (const item of outcome.items) {
			const uid = String(item.json.uid);
			emitted.push(uid);
			known.set(uid, Date.parse(String(item.json.createdAt)));
		}
		lastGoodPollMs = nowMs;
	}

	const expected = matchingVisible()
		.map((j) => j.uid)
		.filter((uid) => !atActivation.has(uid));
	const rowsPaid = (startBalance - h.server.admin.balance(h.accountId).totalMicrocents) / ROW_PRICE_MICROCENTS;
	return { h, emitted, expected, rowsPaid, overlapBound, naiveRows, polls: index + 1, failures, maxStateBytes };
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
