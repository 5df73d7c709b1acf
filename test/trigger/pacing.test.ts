import { recordingSleep, takeWaits, waitsMoveDate } from '../support/sleeps';

// Every wait the trigger asks for (its request pacing, a 429's Retry-After) moves the faked Date
// on instead of passing in real time; the reference server reads the same clock.
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import { fillRateWindow, iso, moveTo, postedAt, searchOf, stateOf, uidsOf } from './pollHelpers';
import { FAKE_DATE_ONLY, MINUTE, everyMinutes, peakPerMinute, startHarnessed, type Harnessed, type TimeControl } from './scriptedDay';

// How the trigger spends the key's requests, in real n8n-core's PollContext against the reference
// server over loopback: never more than a Free key's 10 in any 60 seconds, Requests per Minute on
// average, and a 429 waited out inside the poll when it ends within the poll's time, else carried
// to the next poll with what was read sent.

const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };
const T0 = Date.parse('2026-11-20T08:00:00.000Z');
/** A Free key's whole limit, which no 60 seconds of one trigger's requests may pass (WINDOW_REQUEST_CAP), written out. */
const FREE_KEY_LIMIT = 10;

beforeAll(() => {
	jest.useFakeTimers(FAKE_DATE_ONLY);
	waitsMoveDate();
});
afterAll(() => jest.useRealTimers());

let h: Harnessed | undefined;
afterEach(async () => {
	await h?.server.close();
	h = undefined;
});

const callTimes = (h: Harnessed) => h.server.admin.callLog(h.accountId).map((c) => c.at);

describe('a 429 in a poll', () => {
	it('is waited out inside the poll when its Retry-After ends within the poll, which then completes, and the log line says so', async () => {
		h = await startHarnessed(time, T0, {}, { jobs: 0 }, { plan: 'free' });
		expect((await h.poller.poll()).error).toBeUndefined();
		const t1 = T0 + 5 * MINUTE;
		moveTo(time, t1);
		const posted = h.server.admin.addJobs(postedAt(t1 - 10_000, 4));
		// Another workflow fills the key's minute 50 s before the poll: the service asks to wait 10 s.
		await fillRateWindow(h);
		moveTo(time, t1 + 50_000);
		takeWaits();
		const outcome = await h.poller.poll();
		expect(outcome.error).toBeUndefined();
		expect(uidsOf(outcome.items)).toEqual(posted.map((j) => j.uid));
		expect(takeWaits()[0]).toBe(10_000);
		// The head's request and its second try; the looks for late jobs follow, paced.
		const trigger = h.server.admin.callLog(h.accountId).filter((c) => c.at >= t1 + 50_000).slice(0, 2);
		expect(trigger).toMatchObject([
			{ at: t1 + 50_000, status: 429 },
			{ at: t1 + MINUTE, status: 200 },
		]);
		const line = h.poller.logs.filter((l) => l.level === 'info').at(-1)!.message;
		expect(line).toMatch(/: 4 new jobs; .*; waited \d+\.\d s for the rate window; 1 rate limit \(429\) waited out/);
		expect(h.poller.logs.filter((l) => l.level === 'warn')).toEqual([]);
		expect(stateOf(h.poller).trouble).toBeUndefined();
	});

	it('ends the reading when its Retry-After ends after the poll: the jobs read are sent, and the next poll after the pause reads on', async () => {
		h = await startHarnessed(time, T0, {}, { jobs: 0, pageCap: 5 }, { plan: 'free' });
		expect((await h.poller.poll()).error).toBeUndefined();
		const t1 = T0 + 5 * MINUTE;
		moveTo(time, t1);
		const posted = h.server.admin.addJobs(postedAt(t1 - 10_000, 8));
		// Another workflow leaves the key one request of its minute: the head read's first page gets it.
		await fillRateWindow(h, FREE_KEY_LIMIT - 1);
		moveTo(time, t1 + 1_000);
		const outcome = await h.poller.poll();
		expect(outcome.error).toBeUndefined();
		expect(uidsOf(outcome.items)).toEqual(posted.slice(0, 5).map((j) => j.uid));
		// The second page, 6 s later, is told to wait until the minute is over: past the poll's 38.4 s.
		expect(stateOf(h.poller).requests.pausedUntilMs).toBe(t1 + MINUTE);
		const warning = h.poller.logs.filter((l) => l.level === 'warn').at(-1)!.message;
		expect(warning).toMatch(
			`the service is rate limiting this key (Rate limited: the service asked to wait 53 s, longer than this node may wait); the jobs read are sent, the rest follows on the next polls from ${iso(t1 + MINUTE)}`,
		);
		expect(h.poller.logs.filter((l) => l.level === 'info').at(-1)!.message).not.toMatch(/waited out/);

		moveTo(time, t1 + MINUTE + 1_000);
		const next = await h.poller.poll();
		expect(next.error).toBeUndefined();
		expect(uidsOf(next.items)).toEqual(posted.slice(5).map((j) => j.uid));
		expect(searchOf(h.poller)!.watch!.pending).toEqual([]);
	});
});

describe("the key's requests", () => {
	it('never sees more than 10 of one trigger in any 60 seconds, however much there is to read', async () => {
		// Every 15 minutes with small pages: each poll has 30 pages of new jobs and a full bucket.
		h = await startHarnessed(time, T0, { ...everyMinutes(15) }, { jobs: 0, pageCap: 5 });
		expect((await h.poller.poll()).error).toBeUndefined();
		const sent: string[] = [];
		let posted = 0;
		for (let poll = 1; poll <= 4; poll++) {
			const atMs = T0 + poll * 15 * MINUTE;
			moveTo(time, atMs);
			posted += h.server.admin.addJobs(postedAt(atMs - 1000, 150, 5000)).length;
			sent.push(...uidsOf((await h.poller.poll()).items));
		}
		const times = callTimes(h);
		expect(times.length).toBeGreaterThan(4 * 30);
		expect(peakPerMinute(times)).toBe(FREE_KEY_LIMIT);
		expect(sent).toHaveLength(posted);
		expect(new Set(sent).size).toBe(posted);
	});

	it.each([
		['2 when Requests per Minute says so', 2, { requestsPerMinute: 2 }],
		['5 by default', 5, {}],
	])('stays within Requests per Minute on average (%s), with what the bucket held at activation', async (_name, perMinute, options) => {
		h = await startHarnessed(time, T0, { options }, { jobs: 0, pageCap: 3 });
		expect((await h.poller.poll()).error).toBeUndefined();
		const sent: string[] = [];
		for (let minute = 1; minute <= 40; minute++) {
			const atMs = T0 + minute * MINUTE;
			moveTo(time, atMs);
			h.server.admin.addJobs(postedAt(atMs - 1000, 15, 3000));
			sent.push(...uidsOf((await h.poller.poll()).items));
		}
		const times = callTimes(h);
		const minutes = (times.at(-1)! - T0) / MINUTE;
		// A new trigger starts with a Free key's minute in its bucket, then earns Requests per Minute.
		expect(times.length).toBeLessThanOrEqual(FREE_KEY_LIMIT + perMinute * minutes);
		// It wants more than that (five pages a minute and its late-job looks), so the bound is what holds it.
		expect(times.length).toBeGreaterThanOrEqual(perMinute * minutes);
		expect(new Set(sent).size).toBe(sent.length);
	});
});
