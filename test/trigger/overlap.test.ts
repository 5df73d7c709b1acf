import axios from 'axios';
import fc from 'fast-check';
import { createServer, request, type Server } from 'http';
import type { IPollFunctions } from 'n8n-workflow';

import { pollBudgetMs } from '../../nodes/JobSearch/trigger/pollTime';
import { GUARD_KEY } from '../../nodes/JobSearch/trigger/pollLock';
import { createPoller, type Poller } from '../harness/poll';
import { listenOnLoopback } from '../support/hosts';
import { propertyParameters } from '../support/property';
import { FAKE_DATE_ONLY, MINUTE, startHarnessed, type Harnessed, type TimeControl } from './scriptedDay';
import { startSlowProxy } from '../support/proxy';

// n8n 2.8 calls poll() at every tick of Poll Times without waiting for the poll before, on one
// PollContext and one static data object. Here the second poll starts while the first one's
// request is in flight (a slow host) or while it waits out a 429: it must send nothing, change
// nothing, and the first must send each new job once. Only Date is faked; the 429 wait is a sleep
// the test hands back, so nothing waits in real time.

const gate = { waits: [] as number[], release: [] as Array<() => void> };
async function gatedSleep(ms: number): Promise<void> {
	gate.waits.push(ms);
	await new Promise<void>((resolve) => gate.release.push(resolve));
}
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: (ms: number) => gatedSleep(ms) }));

const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };
const T0 = Date.parse('2026-11-20T08:00:00.000Z');

/** A pass-through proxy that, while `holding`, keeps each request until the test lets it go. */
async function startHoldingProxy(target: string) {
	const upstream = new URL(target);
	const held: Array<() => void> = [];
	const arrived: Array<() => void> = [];
	let holding = true;
	const server: Server = createServer((req, res) => {
		const forward = () => {
			const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			});
			out.on('error', () => res.destroy());
			req.pipe(out);
		};
		if (!holding) return forward();
		held.push(forward);
		arrived.splice(0).forEach((notify) => notify());
	});
	const listening = await listenOnLoopback(server);
	return {
		...listening,
		/** Resolves once a request is being held. */
		nextRequest: () => new Promise<void>((resolve) => (held.length > 0 ? resolve() : arrived.push(resolve))),
		/** Lets every held request go, and the ones after it pass straight through. */
		passThrough: () => {
			holding = false;
			held.splice(0).forEach((forward) => forward());
		},
		hold: () => (holding = true),
	};
}

const newJobs = (n: number, atMs: number) =>
	Array.from({ length: n }, (_, i) => ({ createdAt: new Date(atMs - (i + 1) * 1000).toISOString(), client: { paymentMethodVerified: true } }));
const uidsOf = (items: { json: { uid?: unknown } }[]) => items.map((item) => String(item.json.uid));
/** Lets pending I/O and timers' callbacks run without any time passing on the faked clock. */
const settle = async (rounds = 20) => {
	for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** The server, a holding proxy in front of it and a trigger activated through it at T0. */
async function activatedBehindProxy() {
	h = await startHarnessed(time, T0, {}, { jobs: 0 });
	const proxy = await startHoldingProxy(h.server.url);
	const poller = createPoller({ credentials: { apiKey: h.key, baseUrl: proxy.url } });
	proxy.passThrough();
	expect((await poller.poll()).error).toBeUndefined();
	return { proxy, poller };
}

/** A poll at `nowMs` whose first request the host holds while n8n starts the next poll 0.4 s later. */
async function pollOverlapped(proxy: Awaited<ReturnType<typeof startHoldingProxy>>, poller: Poller, nowMs: number) {
	proxy.hold();
	const first = poller.poll();
	await proxy.nextRequest();
	time.set(nowMs + 400);
	expect(await poller.poll()).toEqual({ items: [], empty: true });
	proxy.passThrough();
	return await first;
}

let h: Harnessed | undefined;
beforeAll(() => jest.useFakeTimers(FAKE_DATE_ONLY));
afterAll(() => jest.useRealTimers());
afterEach(async () => {
	await h?.server.close();
	h = undefined;
	gate.waits = [];
	gate.release = [];
});

describe('when n8n starts a poll while the one before is still running', () => {
	it('sends each job once when the second poll starts while the first waits for a slow host', async () => {
		const { proxy, poller } = await activatedBehindProxy();
		try {
			time.set(T0 + MINUTE);
			h!.server.admin.addJobs(newJobs(6, T0 + MINUTE));
			expect(uidsOf((await pollOverlapped(proxy, poller, T0 + MINUTE)).items)).toHaveLength(6);

			time.set(T0 + 2 * MINUTE);
			expect((await poller.poll()).items).toEqual([]);
			expect(poller.staticData()).not.toHaveProperty(GUARD_KEY);
		} finally {
			proxy.passThrough();
			await proxy.close();
		}
	});

	it('sends each job once when the second poll starts while the first waits out a 429', async () => {
		h = await startHarnessed(time, T0, {}, { jobs: 0, rateLimits: { pro: { requests: 1, windowMs: 10_000 } } });
		const poller = createPoller({ credentials: { apiKey: h.key, baseUrl: h.server.url } });
		expect((await poller.poll()).error).toBeUndefined();

		time.set(T0 + MINUTE);
		h.server.admin.addJobs(newJobs(6, T0 + MINUTE));
		// Another workflow on the same key takes the rate limit's one request.
		await axios.post(`${h.server.url}/v1/search_jobs`, { limit: 1 }, { headers: { authorization: `Bearer ${h.key}` } });
		const first = poller.poll();
		while (gate.waits.length === 0) await settle(1);
		expect(gate.waits[0]).toBeGreaterThanOrEqual(10_000);

		time.set(T0 + MINUTE + 400);
		const second = await poller.poll();
		expect(second).toEqual({ items: [], empty: true });
		expect(poller.logs.some((l) => /is still running; this one sends nothing/.test(l.message))).toBe(true);

		// Every further request of the first poll waits out its own 429, released as it comes.
		let now = T0 + MINUTE + 11_000;
		let result: Awaited<typeof first> | undefined;
		void first.then((r) => (result = r));
		while (result === undefined) {
			time.set((now += 11_000));
			gate.release.splice(0).forEach((go) => go());
			await settle();
		}
		expect(result.error).toBeUndefined();
		expect(uidsOf(result.items)).toHaveLength(6);
		expect(new Set(uidsOf(result.items)).size).toBe(6);
		// The poll's log line says what the rate limit cost it.
		expect(poller.logs.some((l) => /6 new jobs;.*waited \d+\.\d s for \d+ rate limits? \(429\) waited out/.test(l.message))).toBe(true);
		expect(poller.staticData()).not.toHaveProperty(GUARD_KEY);
	});

	it('takes over the guard of a poll that never finished once the longest a poll may run has passed', async () => {
		h = await startHarnessed(time, T0, {}, { jobs: 0 });
		const poller: Poller = createPoller({ credentials: { apiKey: h.key, baseUrl: h.server.url } });
		expect((await poller.poll()).error).toBeUndefined();
		// A poll that died mid-way (the process was killed) left its guard behind.
		poller.staticData()[GUARD_KEY] = { id: 'dead', until: new Date(T0 + 2 * MINUTE).toISOString() };
		h.server.admin.addJobs(newJobs(2, T0 + MINUTE));
		time.set(T0 + MINUTE);
		expect((await poller.poll()).items).toEqual([]);
		time.set(T0 + 2 * MINUTE + 1);
		expect((await poller.poll()).items).toHaveLength(2);
	});

	it("does not wait out a 429 past the end of the poll's time, and keeps what it read", async () => {
		h = await startHarnessed(time, T0, {}, { jobs: 0, rateLimits: { pro: { requests: 1, windowMs: 12_000 } } });
		// A slow host: each answer comes 7 seconds after its request, of a 10-second poll.
		const proxy = await startSlowProxy(h.server.url, 7_000, time);
		const poller = createPoller({ credentials: { apiKey: h.key, baseUrl: proxy.url }, pollBudgetMs: 10_000 });
		try {
			h.server.admin.addJobs(newJobs(1, T0 - 10 * MINUTE));
			expect((await poller.poll()).error).toBeUndefined();
			time.set(T0 + MINUTE);
			h.server.admin.addJobs(newJobs(3, T0 + MINUTE));
			// The head read is answered at 7 s; the sweep's request then gets a 429 asking for 5 s
			// more, which Max Retry Wait would allow but the poll's 10 seconds do not.
			const outcome = await poller.poll();
			expect(gate.waits).toEqual([]);
			expect(uidsOf(outcome.items)).toHaveLength(3);
			expect(poller.logs.some((l) => /a request failed after 1 succeeded \(Rate limited/.test(l.message))).toBe(true);
		} finally {
			await proxy.close();
		}
	});
});

describe('whatever polls overlap', () => {
	it('sends every job once, when any poll may start while the one before still waits for the host', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(fc.record({ jobs: fc.integer({ min: 0, max: 4 }), overlap: fc.boolean(), minutes: fc.integer({ min: 1, max: 20 }) }), { minLength: 1, maxLength: 8 }), async (steps) => {
				const { proxy, poller } = await activatedBehindProxy();
				try {
					let now = T0;
					const sent: string[] = [];
					for (const step of steps) {
						now += step.minutes * MINUTE;
						time.set(now);
						h!.server.admin.addJobs(newJobs(step.jobs, now));
						const outcome = step.overlap ? await pollOverlapped(proxy, poller, now) : await poller.poll();
						sent.push(...uidsOf(outcome.items));
					}
					const posted = h!.server.admin.visibleJobs().map((j) => j.uid);
					expect([...sent].sort()).toEqual([...posted].sort());
				} finally {
					proxy.passThrough();
					await proxy.close();
					await h!.server.close();
					h = undefined;
				}
			}),
			propertyParameters(15, 20261126),
		);
	});
});

describe("a poll's time", () => {
	const budget = (pollTimes: unknown, given?: number) =>
		pollBudgetMs({
			getNodeParameter: (name: string, fallback: unknown) => (name === 'pollTimes' ? pollTimes : fallback),
			...(given === undefined ? {} : { getPollBudgetMs: () => given }),
		} as unknown as IPollFunctions);

	it('is most of the shortest time between two polls of Poll Times, and at most 15 minutes', () => {
		expect(budget({ item: [{ mode: 'everyMinute' }] })).toBe(48_000);
		expect(budget({ item: [{ mode: 'everyX', value: 5, unit: 'minutes' }] })).toBe(4 * MINUTE);
		// */7 minutes ticks at :56 and then at :00, four minutes later.
		expect(budget({ item: [{ mode: 'everyX', value: 7, unit: 'minutes' }] })).toBe(0.8 * 4 * MINUTE);
		expect(budget({ item: [{ mode: 'everyHour', minute: 5 }] })).toBe(15 * MINUTE);
		expect(budget({ item: [{ mode: 'everyHour' }, { mode: 'everyMinute' }] })).toBe(48_000);
	});

	it('counts a custom cron expression as a poll every minute', () => {
		expect(budget({ item: [{ mode: 'custom', cronExpression: '*/10 * * * * *' }] })).toBe(48_000);
		expect(budget({})).toBe(48_000);
	});

	it("is what newer n8n gives (getPollBudgetMs) when that is shorter", () => {
		expect(budget({ item: [{ mode: 'everyHour' }] }, 5 * MINUTE)).toBe(5 * MINUTE);
		expect(budget({ item: [{ mode: 'everyMinute' }] }, 5 * MINUTE)).toBe(48_000);
	});
});
