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

import { CronExpressionParser } from 'cron-parser';
import fc from 'fast-check';
import type { IPollFunctions } from 'n8n-workflow';

import { LOCK_KEY } from '../../nodes/JobSearch/trigger/pollLock';
import { cronFields } from '../../nodes/JobSearch/trigger/cron';
import { entriesPollingTogether, pollTimeMs, shortestIntervalMs } from '../../nodes/JobSearch/trigger/pollTime';
import { createPoller, type Poller } from '../harness/poll';
import { cronExpression } from '../support/cron';
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

describe('Poll Times entries polling together (n8n 2.41 reads them)', () => {
	const entries = (timeZone: string, ...item: object[]) =>
		({ getNodeParameter: (name: string, fallback: unknown) => (name === 'pollTimes' ? { item } : fallback), getTimezone: () => timeZone }) as unknown as IPollFunctions;
	const custom = (cronExpression: string) => ({ mode: 'custom', cronExpression });
	/** A poll of 36 s (n8n 2.41's durable budget), which may start a minute late. */
	const NEAR = 36_000 + MINUTE;
	const friday = (time: string) => Date.parse(`2026-11-20T${time}Z`);
	const together = (...item: object[]) => entriesPollingTogether(entries('UTC', ...item), NEAR, friday('10:07:00'));

	it('are two that poll at the same minute, with the next time they do', () => {
		expect(together({ mode: 'everyHour', minute: 0 }, { mode: 'everyX', value: 5, unit: 'minutes' })).toEqual({ entries: [1, 2], at: '11:00' });
		expect(together({ mode: 'everyMinute' }, { mode: 'everyMinute' })).toEqual({ entries: [1, 2], at: '10:07' });
		// In the workflow's time zone: 10:07 UTC is 11:07 in Berlin.
		expect(entriesPollingTogether(entries('Europe/Berlin', { mode: 'everyMinute' }, { mode: 'everyMinute' }), NEAR, friday('10:07:00'))).toEqual({ entries: [1, 2], at: '11:07' });
		expect(together({ mode: 'everyMinute' })).toBeUndefined();
		// A time zone n8n did not resolve ("DEFAULT") fails no poll: the time is counted from midnight.
		expect(entriesPollingTogether(entries('DEFAULT', { mode: 'everyMinute' }, { mode: 'everyMinute' }), NEAR, friday('10:07:00'))).toEqual({ entries: [1, 2], at: '00:00' });
	});

	it('are two whose minutes are less than 3 apart, across midnight too, or 2 where both are fixed modes (n8n gives them one second)', () => {
		// A fixed mode polls at a second n8n picks, a five-field cron at second 0.
		expect(together({ mode: 'everyDay', hour: 9, minute: 0 }, custom('2 9 * * *'))).toEqual({ entries: [1, 2], at: '09:00' });
		expect(together({ mode: 'everyDay', hour: 9, minute: 0 }, custom('3 9 * * *'))).toBeUndefined();
		expect(together(custom('0 9 * * *'), { mode: 'everyDay', hour: 9, minute: 2 })).toBeUndefined();
		expect(together({ mode: 'everyHour', minute: 0 }, { mode: 'everyDay', hour: 9, minute: 1 })).toEqual({ entries: [1, 2], at: '09:00' });
		expect(together({ mode: 'everyX', value: 5, unit: 'minutes' }, { mode: 'everyDay', hour: 9, minute: 2 })).toBeUndefined();
		// Five fields run at second 0: a minute apart is near, two are not.
		expect(together(custom('59 23 * * *'), custom('0 0 * * *'))).toEqual({ entries: [1, 2], at: '23:59' });
		expect(together(custom('59 23 31 1 *'), custom('0 0 1 2 *'))).toEqual({ entries: [1, 2], at: '23:59' });
		expect(together(custom('58 23 31 1 *'), custom('0 0 1 2 *'))).toBeUndefined();
		expect(together(custom('59 23 30 1 *'), custom('0 0 1 2 *'))).toBeUndefined();
		// The 1st of March follows the 28th of February three years in four.
		expect(together(custom('59 23 28 2 *'), custom('0 0 1 3 *'))).toEqual({ entries: [1, 2], at: '23:59' });
		expect(together(custom('30 0 9 * * *'), custom('0 1 9 * * *'))).toEqual({ entries: [1, 2], at: '09:00' });
	});

	// Found by a review: eight years from 2026 hold no 14 February on a Tuesday, no 29 February on a Monday.
	it('are two that meet on a date that falls on a weekday only in some years', () => {
		expect(together(custom('0 9 14 2 *'), custom('0 9 * * 2'))).toEqual({ entries: [1, 2], at: '09:00' });
		expect(together(custom('0 9 29 2 *'), custom('0 9 * * 1'))).toEqual({ entries: [1, 2], at: '09:00' });
	});

	// Found by a review: where the clocks jump forward, two times on either side of the jump come an hour closer, and a time
	// it skips runs an hour later (n8n 2.41's cron library).
	it('are two that come near where the clocks jump forward', () => {
		const inZone = (timeZone: string, ...item: object[]) => entriesPollingTogether(entries(timeZone, ...item), NEAR, friday('10:07:00'));
		expect(inZone('America/New_York', custom('59 1 * * *'), custom('0 3 * * *'))).toEqual({ entries: [1, 2], at: '01:59' });
		expect(inZone('America/New_York', custom('0 2 * * *'), custom('0 3 * * *'))).toEqual({ entries: [1, 2], at: '02:00' });
		expect(inZone('Europe/Berlin', custom('30 2 * * *'), { mode: 'everyHour', minute: 30 })).toEqual({ entries: [1, 2], at: '02:30' });
		expect(inZone('America/Santiago', custom('59 23 * * *'), custom('0 1 * * *'))).toEqual({ entries: [1, 2], at: '23:59' });
		// Lord Howe Island goes forward half an hour.
		expect(inZone('Australia/Lord_Howe', custom('59 1 * * *'), custom('30 2 * * *'))).toEqual({ entries: [1, 2], at: '01:59' });
		expect(inZone('America/New_York', custom('0 1 * * *'), custom('0 3 * * *'))).toBeUndefined();
		expect(inZone('UTC', custom('59 1 * * *'), custom('0 3 * * *'))).toBeUndefined();
	});

	it('are not two that poll on different days, as n8n 2.41 reads the days', () => {
		expect(together(custom('*/15 8-18 * * 1-5'), custom('0 * * * 0,6'))).toBeUndefined();
		expect(together(custom('0 9 * 1 *'), custom('0 9 * 2 *'))).toBeUndefined();
		// n8n 2.41 takes 1-31 for a restriction: with weekdays, either one, so every day.
		expect(together(custom('0 9 1-31 * 1-5'), custom('0 9 * * 6'))).toEqual({ entries: [1, 2], at: '09:00' });
		expect(together(custom('0 9 1 * *'), custom('0 9 * * 1'))).toEqual({ entries: [1, 2], at: '09:00' });
	});

	it('is an entry whose times cannot be known beside others: Every X Hours (n8n picks its minute), a cron with L, W or #', () => {
		expect(together({ mode: 'everyX', value: 2, unit: 'hours' }, { mode: 'everyDay', hour: 9, minute: 0 })).toEqual({ entries: [1] });
		expect(together({ mode: 'everyDay', hour: 9, minute: 0 }, custom('0 8 L * *'))).toEqual({ entries: [2] });
		expect(together({ mode: 'everyX', value: 2, unit: 'hours' })).toBeUndefined();
	});

});

describe("Poll Times entries polling together, against n8n 2.41's cron library", () => {
	/** n8n 2.41's durable budget for a poll, and how late n8n may start one. */
	const POLL = 36_000;
	const LATE = MINUTE;
	const custom = cronExpression(31).map((expression) => ({ mode: 'custom', cronExpression: expression }));
	const minute = fc.integer({ min: 0, max: 59 });
	const hour = fc.integer({ min: 0, max: 23 });
	const mode = fc.oneof(
		fc.constant({ mode: 'everyMinute' }),
		minute.map((m) => ({ mode: 'everyHour', minute: m })),
		fc.tuple(hour, minute).map(([h, m]) => ({ mode: 'everyDay', hour: h, minute: m })),
		fc.tuple(hour, minute, fc.integer({ min: 0, max: 6 })).map(([h, m, weekday]) => ({ mode: 'everyWeek', hour: h, minute: m, weekday: String(weekday) })),
		fc.tuple(hour, minute, fc.integer({ min: 1, max: 31 })).map(([h, m, dayOfMonth]) => ({ mode: 'everyMonth', hour: h, minute: m, dayOfMonth })),
		fc.integer({ min: 2, max: 30 }).map((v) => ({ mode: 'everyX', value: v, unit: 'minutes' })),
	);
	/** The cron n8n 2.41's durable scheduler runs for an entry (poll-trigger-job-registrar): its modes at one second it picks. */
	const scheduled = (item: Record<string, unknown>, second: number) => {
		if (item.mode === 'custom') return `0 ${String(item.cronExpression)}`;
		const { minute: m, hour: h } = item;
		if (item.mode === 'everyMinute') return `${second} * * * * *`;
		if (item.mode === 'everyHour') return `${second} ${m} * * * *`;
		if (item.mode === 'everyDay') return `${second} ${m} ${h} * * *`;
		if (item.mode === 'everyWeek') return `${second} ${m} ${h} * * ${item.weekday}`;
		if (item.mode === 'everyMonth') return `${second} ${m} ${h} ${item.dayOfMonth} * *`;
		return `${second} */${item.value} * * * *`;
	};
	/** Whether a cron names a date there is (the library searches long for one that is not, such as the 31st of April). */
	const names = (cron: string) => {
		const fields = cronFields(cron, true);
		const monthDays = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
		return fields !== undefined && monthDays.some((days, m) => Array.from({ length: days * 7 }).some((_, i) => fields.names(Math.floor(i / 7) + 1, m + 1, i % 7)));
	};
	/** Whether two polls of these crons start closer than a poll and a late start, from `fromMs` on (the first `cap` polls of both, in two years). */
	const meet = (a: string, b: string, timeZone: string, fromMs: number, cap: number) => {
		const polls = (cron: string) => CronExpressionParser.parse(cron, { currentDate: new Date(fromMs), tz: timeZone });
		// A cron the library refuses (April 31st, a value named twice) is refused when the workflow is published; one that
		// names no real date (the 31st of February and September) it gives up on, with times decades away.
		const valid = (cron: string) => {
			try {
				return polls(cron).next().getTime() < fromMs + 4 * 366 * 24 * 60 * MINUTE;
			} catch {
				return false;
			}
		};
		if (!names(a) || !names(b) || !valid(a) || !valid(b)) return false;
		const [as, bs] = [polls(a), polls(b)];
		let [aMs, bMs] = [as.next().getTime(), bs.next().getTime()];
		for (let n = 0; n < cap && Math.min(aMs, bMs) < fromMs + 2 * 366 * 24 * 60 * MINUTE; n++) {
			if (Math.abs(aMs - bMs) < POLL + LATE) return true;
			if (aMs < bMs) aMs = as.next().getTime();
			else bMs = bs.next().getTime();
		}
		return false;
	};
	/** Another entry at a few minutes from `item`'s, the same hours and days: often near, sometimes not. */
	const near = (item: Record<string, unknown>) =>
		fc.integer({ min: -4, max: 4 }).map((shift) => {
			const fields = item.mode === 'custom' ? String(item.cronExpression).split(' ') : ['0', String(item.hour ?? '*'), '*', '*', '*'];
			const first = Number(fields[0].split(/[,/-]/)[0].replace('*', '0'));
			return { mode: 'custom', cronExpression: [String((first + shift + 60) % 60), ...fields.slice(1)].join(' ') };
		});

	it('are told wherever the library has two polls start closer than a poll and a late start (a fixed seed)', () => {
		const entryOf = fc.oneof(custom, mode);
		const pair = entryOf.chain((a) => fc.tuple(fc.constant(a), fc.oneof(entryOf, near(a))));
		// Lord Howe Island's half-hour jump can keep the library searching for minutes: it has its named case above.
		const zone = fc.constantFrom('UTC', 'Asia/Kolkata', 'America/New_York', 'Europe/Berlin', 'America/Santiago');
		const moment = fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2027-12-31T00:00:00Z') });
		fc.assert(
			fc.property(pair, zone, moment, fc.integer({ min: 0, max: 59 }), ([a, b], timeZone, atMs, second) => {
				const context = { getNodeParameter: (name: string, fallback: unknown) => (name === 'pollTimes' ? { item: [a, b] } : fallback), getTimezone: () => timeZone } as unknown as IPollFunctions;
				const told = entriesPollingTogether(context, POLL + LATE, atMs);
				if (meet(scheduled(a, second), scheduled(b, second), timeZone, atMs, 300)) expect({ a, b, told: told !== undefined }).toEqual({ a, b, told: true });
			}),
			propertyParameters(100, 20261201),
		);
	});
});
