import { recordingSleep, waitsMoveDate } from '../support/sleeps';

// A wait the trigger asks for moves the faked Date on (see waitsMoveDate), unless the test closes
// the gate: then it is held until the test lets it end, so a second poll can start meanwhile.
const gate = { closed: false, waits: [] as number[], release: [] as Array<() => void> };
async function gatedSleep(ms: number): Promise<void> {
	if (!gate.closed) return await recordingSleep(ms);
	gate.waits.push(ms);
	await new Promise<void>((resolve) => gate.release.push(resolve));
	await recordingSleep(ms);
}
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: (ms: number) => gatedSleep(ms) }));

import fc from 'fast-check';
import type { IPollFunctions } from 'n8n-workflow';

import { LOCK_KEY } from '../../nodes/JobSearch/trigger/pollLock';
import { pollTimeMs, shortestIntervalMs } from '../../nodes/JobSearch/trigger/pollTime';
import { createPoller, type Poller } from '../harness/poll';
import { propertyParameters } from '../support/property';
import { startFrontProxy, type FrontProxy } from '../support/proxy';
import { fillRateWindow, iso, moveTo, postedAt, staticOf, uidsOf } from './pollHelpers';
import { FAKE_DATE_ONLY, HOUR, MINUTE, everyMinutes, startHarnessed, type Harnessed, type TimeControl } from './scriptedDay';

// n8n 2.8 calls poll() at every tick of Poll Times without waiting for the poll before, on one
// PollContext and one static data object. Here the second poll starts while the first one's
// request is in flight (a slow host) or while it waits out a 429: it must send nothing, change
// nothing, and the first must send each new job once. Only Date is faked, and nothing waits in
// real time.

const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };
const T0 = Date.parse('2026-11-20T08:00:00.000Z');
/** How long a lock outlives its poll's time (LOCK_GRACE_MS), written out so that a change to it is seen. */
const LOCK_GRACE = MINUTE;
/** The poll time at Every 5 Minutes: 80% of the interval. */
const FIVE_MINUTE_POLL_TIME = 4 * MINUTE;

/** Lets pending I/O run without any time passing on the faked clock. */
const settle = async (rounds = 20) => {
	for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

let h: Harnessed | undefined;
let proxy: FrontProxy | undefined;
beforeAll(() => {
	jest.useFakeTimers(FAKE_DATE_ONLY);
	waitsMoveDate();
});
afterAll(() => jest.useRealTimers());
afterEach(async () => {
	await proxy?.close();
	await h?.server.close();
	h = undefined;
	proxy = undefined;
	gate.closed = false;
	gate.waits = [];
	gate.release = [];
});

/** The server, a proxy in front of it and a trigger activated through it at T0. */
async function activatedBehindProxy(parameters = {}) {
	h = await startHarnessed(time, T0, parameters, { jobs: 0 });
	proxy = await startFrontProxy(h.server.url);
	const poller = createPoller({ credentials: { apiKey: h.key, baseUrl: proxy.url }, parameters });
	expect((await poller.poll()).error).toBeUndefined();
	return { h, proxy, poller };
}

/** A poll at `nowMs` whose first request the host holds while n8n starts the next poll 0.4 s later: that one sends nothing and changes nothing. */
async function pollOverlapped(proxy: FrontProxy, poller: Poller, nowMs: number) {
	proxy.mode = 'hold';
	const first = poller.poll();
	await proxy.holding();
	const before = JSON.stringify(poller.staticData());
	moveTo(time, nowMs + 400);
	expect(await poller.poll()).toEqual({ items: [], empty: true });
	expect(JSON.stringify(poller.staticData())).toBe(before);
	proxy.passThrough();
	return await first;
}

describe('when n8n starts a poll while the one before is still running', () => {
	it('sends each job once, and the second poll nothing, when it starts while the first waits for a slow host', async () => {
		const { h, proxy, poller } = await activatedBehindProxy();
		moveTo(time, T0 + MINUTE);
		const posted = h.server.admin.addJobs(postedAt(T0 + 50_000, 6));
		expect(uidsOf((await pollOverlapped(proxy, poller, T0 + MINUTE)).items)).toEqual(posted.map((j) => j.uid));
		expect(poller.logs.some((l) => l.message.includes(`the poll that started at ${iso(T0 + MINUTE)} is still running; this one sends nothing`))).toBe(true);

		moveTo(time, T0 + 2 * MINUTE);
		expect((await poller.poll()).items).toEqual([]);
		expect(poller.staticData()).not.toHaveProperty(LOCK_KEY);
	});

	it('sends each job once, and the second poll nothing, when it starts while the first waits out a 429', async () => {
		h = await startHarnessed(time, T0, {}, { jobs: 0 }, { plan: 'free' });
		expect((await h.poller.poll()).error).toBeUndefined();
		const t1 = T0 + 5 * MINUTE;
		moveTo(time, t1);
		const posted = h.server.admin.addJobs(postedAt(t1 - 10_000, 6));
		// Another workflow on the same key fills its minute: the service asks the trigger to wait 10 s.
		await fillRateWindow(h);
		moveTo(time, t1 + 50_000);
		gate.closed = true;
		const first = h.poller.poll();
		while (gate.waits.length === 0) await settle(1);
		expect(gate.waits).toEqual([10_000]);

		const before = JSON.stringify(h.poller.staticData());
		moveTo(time, t1 + 50_400);
		expect(await h.poller.poll()).toEqual({ items: [], empty: true });
		expect(JSON.stringify(h.poller.staticData())).toBe(before);
		expect(h.poller.logs.some((l) => l.message.includes(`the poll that started at ${iso(t1 + 50_000)} is still running`))).toBe(true);

		gate.closed = false;
		gate.release.splice(0).forEach((go) => go());
		const outcome = await first;
		expect(outcome.error).toBeUndefined();
		expect(uidsOf(outcome.items)).toEqual(posted.map((j) => j.uid));
		expect(h.poller.staticData()).not.toHaveProperty(LOCK_KEY);
	});
});

describe("the poll's lock", () => {
	it("lasts the poll's time and a minute more: a poll one millisecond before that sends nothing, one at that moment takes over", async () => {
		const { proxy, poller } = await activatedBehindProxy(everyMinutes(5));
		const t1 = T0 + 5 * MINUTE;
		moveTo(time, t1);
		proxy.mode = 'hold';
		const stuck = poller.poll();
		await proxy.holding();
		const expiry = t1 + FIVE_MINUTE_POLL_TIME + LOCK_GRACE;
		expect(staticOf(poller).running?.until).toBe(iso(expiry));

		time.set(expiry - 1);
		expect(await poller.poll()).toEqual({ items: [], empty: true });
		expect(poller.logs.at(-1)?.message).toMatch(`the poll that started at ${iso(t1)} is still running`);

		time.set(expiry);
		const takeover = poller.poll();
		await proxy.holding(2);
		expect(staticOf(poller).running?.until).toBe(iso(expiry + FIVE_MINUTE_POLL_TIME + LOCK_GRACE));
		proxy.passThrough();
		await Promise.all([stuck, takeover]);
	});

	it("is never released by a poll that lost it: the poll that took it over keeps it until it ends", async () => {
		const { proxy, poller } = await activatedBehindProxy(everyMinutes(5));
		const t1 = T0 + 5 * MINUTE;
		moveTo(time, t1);
		proxy.mode = 'hold';
		const expired = poller.poll();
		await proxy.holding();
		time.set(t1 + FIVE_MINUTE_POLL_TIME + LOCK_GRACE);
		const current = poller.poll();
		await proxy.holding(2);
		const lock = staticOf(poller).running;

		// The poll whose lock expired ends first: the lock stays with the one that took it over.
		proxy.releaseOne();
		await expired;
		expect(staticOf(poller).running).toEqual(lock);
		time.set(t1 + FIVE_MINUTE_POLL_TIME + LOCK_GRACE + 1_000);
		expect(await poller.poll()).toEqual({ items: [], empty: true });
		expect(poller.logs.at(-1)?.message).toMatch(`the poll that started at ${iso(t1 + FIVE_MINUTE_POLL_TIME + LOCK_GRACE)} is still running`);

		proxy.passThrough();
		await current;
		expect(poller.staticData()).not.toHaveProperty(LOCK_KEY);
	});

	it('is taken over from a poll that never finished once the longest a poll may run has passed', async () => {
		h = await startHarnessed(time, T0, {}, { jobs: 0 });
		expect((await h.poller.poll()).error).toBeUndefined();
		// A poll that died mid-way (the process was killed) left its lock behind.
		h.poller.staticData()[LOCK_KEY] = { id: 'dead', until: iso(T0 + 2 * MINUTE) };
		h.server.admin.addJobs(postedAt(T0 + 50_000, 2));
		moveTo(time, T0 + MINUTE);
		expect((await h.poller.poll()).items).toEqual([]);
		moveTo(time, T0 + 2 * MINUTE);
		expect((await h.poller.poll()).items).toHaveLength(2);
	});
});

describe('whatever polls overlap', () => {
	it('sends every job once, when any poll may start while the one before still waits for the host', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.record({ jobs: fc.integer({ min: 0, max: 4 }), overlap: fc.boolean(), minutes: fc.integer({ min: 1, max: 20 }) }), { minLength: 1, maxLength: 8 }),
				async (steps) => {
					const { h, proxy, poller } = await activatedBehindProxy();
					try {
						let now = T0;
						const sent: string[] = [];
						for (const step of steps) {
							now = Math.max(now + step.minutes * MINUTE, Date.now());
							time.set(now);
							h.server.admin.addJobs(postedAt(now, step.jobs));
							const outcome = step.overlap ? await pollOverlapped(proxy, poller, now) : await poller.poll();
							sent.push(...uidsOf(outcome.items));
						}
						const posted = h.server.admin.visibleJobs().map((j) => j.uid);
						expect([...sent].sort()).toEqual([...posted].sort());
					} finally {
						await proxy.close();
						await h.server.close();
					}
				},
			),
			propertyParameters(15, 20261126),
		);
		h = undefined;
		proxy = undefined;
	});
});

describe("a poll's time", () => {
	const context = (pollTimes: unknown, given?: unknown) =>
		({
			getNodeParameter: (name: string, fallback: unknown) => (name === 'pollTimes' ? pollTimes : fallback),
			getTimezone: () => 'UTC',
			...(given === undefined ? {} : { getPollBudgetMs: () => given }),
		}) as unknown as IPollFunctions;
	const every = (...item: object[]) => ({ item });

	it('is most of the shortest time between two polls of Poll Times, and at most 15 minutes', () => {
		expect(pollTimeMs(context(every({ mode: 'everyMinute' })))).toBe(48_000);
		expect(pollTimeMs(context(every({ mode: 'everyX', value: 5, unit: 'minutes' })))).toBe(4 * MINUTE);
		// */7 minutes ticks at :56 and then at :00, four minutes later.
		expect(pollTimeMs(context(every({ mode: 'everyX', value: 7, unit: 'minutes' })))).toBe(0.8 * 4 * MINUTE);
		expect(pollTimeMs(context(every({ mode: 'everyHour', minute: 5 })))).toBe(15 * MINUTE);
		expect(pollTimeMs(context(every({ mode: 'everyHour' }, { mode: 'everyMinute' })))).toBe(48_000);
	});

	it('reads Every X Hours in hours', () => {
		expect(shortestIntervalMs(context(every({ mode: 'everyX', value: 2, unit: 'hours' })))).toBe(2 * HOUR);
		// */5 hours ticks at 20:00 and then at 00:00, four hours later.
		expect(shortestIntervalMs(context(every({ mode: 'everyX', value: 5, unit: 'hours' })))).toBe(4 * HOUR);
		expect(pollTimeMs(context(every({ mode: 'everyX', value: 1, unit: 'hours' })))).toBe(15 * MINUTE);
	});

	it('reads Every X Minutes in minutes, and the shortest of several entries', () => {
		expect(shortestIntervalMs(context(every({ mode: 'everyX', value: 10, unit: 'minutes' })))).toBe(10 * MINUTE);
		expect(shortestIntervalMs(context(every({ mode: 'everyX', value: 2, unit: 'hours' }, { mode: 'everyX', value: 30, unit: 'minutes' })))).toBe(30 * MINUTE);
		expect(shortestIntervalMs(context(every({ mode: 'everyDay', hour: 9 })))).toBe(24 * HOUR);
	});

	it('counts a custom cron expression, or no Poll Times at all, as a poll every minute', () => {
		expect(shortestIntervalMs(context(every({ mode: 'custom', cronExpression: '0 */3 * * *' })))).toBe(MINUTE);
		expect(pollTimeMs(context(every({ mode: 'custom', cronExpression: '*/10 * * * * *' })))).toBe(48_000);
		expect(pollTimeMs(context({}))).toBe(48_000);
	});

	it('is what newer n8n gives (getPollBudgetMs) when that is shorter, and ignores what is not a time', () => {
		expect(pollTimeMs(context(every({ mode: 'everyHour' }), 36_000))).toBe(36_000);
		expect(pollTimeMs(context(every({ mode: 'everyMinute' }), 5 * MINUTE))).toBe(48_000);
		expect(pollTimeMs(context(every({ mode: 'everyHour' }), 0))).toBe(15 * MINUTE);
		expect(pollTimeMs(context(every({ mode: 'everyHour' }), 'soon'))).toBe(15 * MINUTE);
	});
});
