import { recordingSleep, waitsMoveDate } from '../support/sleeps';

// Every wait the trigger asks for (its request pacing, a 429's Retry-After) moves the faked Date
// on instead of passing in real time; the reference server reads the same clock.
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import { readFileSync } from 'fs';
import { join } from 'path';
import type { INodeParameters } from 'n8n-workflow';

import { PRICE_MICROCENTS } from '../../nodes/JobSearch/service/pricing';
import { JOB_SEARCH_TRIGGER_TYPE, loadNodeTypes } from '../harness';
import { createPoller } from '../harness/poll';
import { iso, moveTo, postedAt, searchOf, stateOf, uidsOf } from './pollHelpers';
import { DAY_START, FAKE_DATE_ONLY, HOUR, MINUTE, VERIFIED_CLIENTS, everyMinutes, startHarnessed, type Harnessed, type TimeControl } from './scriptedDay';
import { startSlowProxy } from '../support/proxy';

// Activation, "Fetch Test Event", the trigger's options and what a poll reads, each in real
// n8n-core's PollContext against the reference server over loopback.

const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };
const LIVE = { postingsPerHour: 60, minLagMs: MINUTE, maxLagMs: 15 * MINUTE };

beforeAll(() => {
	jest.useFakeTimers(FAKE_DATE_ONLY);
	waitsMoveDate();
});
afterAll(() => jest.useRealTimers());

let h: Harnessed;
afterEach(async () => h && (await h.server.close()));

const snapshot = () => JSON.stringify(h.poller.staticData());

describe('on activation and in the editor', () => {
	it('emits nothing on the first poll even when matching jobs are visible, then only what is new', async () => {
		h = await startHarnessed(time, DAY_START, {}, { jobs: 0, live: LIVE });
		h.server.admin.addJobs([1, 3, 8].map((m) => ({ createdAt: iso(DAY_START - m * MINUTE) })));
		const atActivation = new Set(h.server.admin.visibleJobs().map((j) => j.uid));
		const first = await h.poller.poll();
		expect(first.error).toBeUndefined();
		expect(first.empty).toBe(true);
		expect(stateOf(h.poller).polls).toBe(1);
		expect(searchOf(h.poller)).toMatchObject({ activatedMs: DAY_START, watch: { headMs: DAY_START - MINUTE } });
		expect([...searchOf(h.poller)!.watch!.seen.keys()].sort()).toEqual([...atActivation].sort());
		moveTo(time, DAY_START + 30 * MINUTE);
		const second = await h.poller.poll();
		const appeared = h.server.admin.visibleJobs().filter((j) => !atActivation.has(j.uid));
		expect(appeared.length).toBeGreaterThan(5);
		expect(uidsOf(second.items)).toEqual(appeared.map((j) => j.uid));
	});

	// A job 70 minutes old is inside an hour's Late Window (and the 15 minutes the index's clock may lag), not inside half an hour's.
	it.each([
		['an hour by default', {}, true],
		['as long as Late Window (Minutes) says', { lateWindowMinutes: 30 }, false],
	])('reads the Late Window on activation, %s', async (_name, options, learned) => {
		h = await startHarnessed(time, DAY_START, { options }, { jobs: 0 });
		const [old] = h.server.admin.addJobs([{ createdAt: iso(DAY_START - 70 * MINUTE) }]);
		expect(await h.poller.poll()).toEqual({ items: [], empty: true });
		expect(searchOf(h.poller)!.watch!.seen.has(old.uid)).toBe(learned);
	});

	it('emits the jobs of the last hours on the first poll when that option is set', async () => {
		h = await startHarnessed(time, DAY_START, { options: { firstPollHours: 48 } }, { jobs: 3000 });
		const first = await h.poller.poll();
		const expected = h.server.admin
			.visibleJobs()
			.filter((j) => Date.parse(j.createdAt) >= DAY_START - 48 * HOUR)
			.map((j) => j.uid);
		expect(expected.length).toBeGreaterThan(50);
		expect(uidsOf(first.items)).toEqual(expected);
	});

	it('returns a few recent matching jobs on "Fetch Test Event" and changes no state', async () => {
		h = await startHarnessed(time, DAY_START, { ...VERIFIED_CLIENTS }, { jobs: 3000, live: LIVE });
		const before = await h.poller.poll('manual');
		expect(before.items.length).toBeGreaterThan(0);
		expect(before.items.length).toBeLessThanOrEqual(5);
		expect(before.items.every((i) => i.json.clientPaymentVerified === true)).toBe(true);
		expect(h.poller.staticData()).toEqual({});

		await h.poller.poll();
		const state = snapshot();
		moveTo(time, DAY_START + 40 * MINUTE);
		await h.poller.poll('manual');
		expect(snapshot()).toBe(state);
		const next = await h.poller.poll();
		expect(next.items.length).toBeGreaterThan(0);
	});

	it('sends each simplified alert with the full job description', async () => {
		h = await startHarnessed(time, DAY_START, {}, { jobs: 3000 });
		const sample = await h.poller.poll('manual');
		const descriptions = new Map(h.server.admin.visibleJobs().map((j) => [j.uid, j.description]));
		expect(sample.items.length).toBeGreaterThan(0);
		for (const { json } of sample.items) {
			expect(json.client).toBeUndefined();
			expect(json.description).toBe(descriptions.get(String(json.uid)));
		}
	});

	it('puts Include Usage on the first job of a poll only, with what the whole poll consumed', async () => {
		h = await startHarnessed(time, DAY_START, { options: { firstPollHours: 48, includeUsage: true } }, { jobs: 3000 });
		const first = await h.poller.poll();
		expect(first.items.length).toBeGreaterThan(50);
		const usage = first.items[0].json.usage as { consumedMicrocents: number };
		expect(usage.consumedMicrocents).toBeGreaterThanOrEqual(first.items.length * PRICE_MICROCENTS.search_jobs);
		expect(first.items.slice(1).filter((i) => i.json.usage !== undefined)).toEqual([]);
	});

	// Written out rather than read from TRIGGER_OWNED_KEYS: a key dropped from that list must fail here.
	it.each(['fromDate', 'toDate', 'searchPeriod', 'limit'])(
		'refuses "%s" in Additional Filters before spending anything: the trigger sets it itself',
		async (key) => {
			const value = key === 'limit' ? 500 : key === 'searchPeriod' ? '24h' : '2026-01-01T00:00:00Z';
			h = await startHarnessed(time, DAY_START, { options: { additionalFilters: JSON.stringify({ [key]: value }) } });
			const message = `Additional Filters (JSON) sets "${key}", which the trigger sets itself`;
			expect((await h.poller.poll()).error?.message).toBe(message);
			expect((await h.poller.poll('manual')).error?.message).toBe(message);
			expect(h.server.admin.callLog(h.accountId)).toEqual([]);
			expect(h.poller.staticData()).toEqual({});
		},
	);

	it('refuses a filter value the service would reject, naming the field, before any request', async () => {
		h = await startHarnessed(time, DAY_START, { options: { additionalFilters: '{"budget.jobDurations": ["FOREVER"]}' } });
		const outcome = await h.poller.poll();
		expect(outcome.error?.message).toMatch(/budget\.jobDurations/);
		expect(h.server.admin.callLog(h.accountId)).toEqual([]);
		expect(h.poller.staticData()).toEqual({});
	});
});

describe('within one poll', () => {
	it('sends at most Max Jobs per Poll and the rest on the next polls, none twice', async () => {
		h = await startHarnessed(time, DAY_START, { ...everyMinutes(5), options: { maxJobsPerPoll: 40 } }, { jobs: 0, pageCap: 15 });
		await h.poller.poll();
		moveTo(time, DAY_START + 2 * MINUTE);
		const posted = h.server.admin.addJobs(postedAt(DAY_START + 100_000, 100));
		const emitted: string[][] = [];
		for (let poll = 1; poll <= 4; poll++) {
			moveTo(time, DAY_START + poll * 5 * MINUTE);
			const outcome = await h.poller.poll();
			expect(outcome.error).toBeUndefined();
			emitted.push(uidsOf(outcome.items));
		}
		const uids = posted.map((j) => j.uid);
		// The head read stops at 40 rows (newest first, a boundary job read again at each page); the rest follows.
		expect(emitted.map((e) => e.length).every((n) => n <= 40)).toBe(true);
		expect(emitted[0]).toEqual(uids.slice(0, emitted[0].length));
		expect(emitted[0].length).toBeGreaterThan(35);
		expect(emitted.flat().sort()).toEqual([...uids].sort());
		expect(emitted.at(-1)).toEqual([]);
	});

	it('reads 2,500 new jobs in a poll by default (Max Jobs per Poll), and the rest on the next one', async () => {
		h = await startHarnessed(time, DAY_START, {}, { jobs: 0 });
		await h.poller.poll();
		moveTo(time, DAY_START + 2 * MINUTE);
		const posted = h.server.admin.addJobs(postedAt(DAY_START + 100_000, 2_600, 20));
		const first = await h.poller.poll();
		// Five pages of 500; each page after the first reads its boundary job again.
		expect(first.items.length).toBeLessThanOrEqual(2_500);
		expect(first.items.length).toBeGreaterThan(2_490);
		moveTo(time, DAY_START + 3 * MINUTE);
		const second = await h.poller.poll();
		expect([...uidsOf(first.items), ...uidsOf(second.items)].sort()).toEqual(posted.map((j) => j.uid).sort());
	});

	it('uses the poll budget of newer n8n when the context offers one', async () => {
		h = await startHarnessed(time, DAY_START, {}, { jobs: 0, pageCap: 10 });
		// A slow host: each answer comes 5 s after its request, past 80% of a 5-second poll.
		const proxy = await startSlowProxy(h.server.url, 5_000, time);
		try {
			const withBudget = createPoller({
				credentials: { apiKey: h.key, baseUrl: proxy.url },
				// Requests per Minute no more than the poll may send: the head reads all it can.
				parameters: { options: { requestsPerMinute: 1 } },
				pollBudgetMs: 5_000,
			});
			await withBudget.poll();
			moveTo(time, DAY_START + MINUTE);
			const posted = h.server.admin.addJobs(postedAt(DAY_START + 50_000, 30));
			const outcome = await withBudget.poll();
			expect(uidsOf(outcome.items)).toEqual(posted.slice(0, 10).map((j) => j.uid));
			expect(searchOf(withBudget)!.watch!.pending).toHaveLength(1);
		} finally {
			await proxy.close();
		}
	});
});

describe('where the index shows two jobs in one millisecond', () => {
	// A pass over more stretches than one poll asks is stored between polls; where the index makes
	// ties it gives no final look (finalUpTo -Infinity), which the stored state must keep too.
	it('keeps polling while a pass spans several polls, and sends nothing twice', async () => {
		h = await startHarnessed(time, DAY_START, {}, { jobs: 0 });
		expect((await h.poller.poll()).error).toBeUndefined();
		moveTo(time, DAY_START + MINUTE);
		const tie = iso(DAY_START + 30_000);
		const posted = h.server.admin.addJobs([{ createdAt: iso(DAY_START + 50_000) }, { createdAt: iso(DAY_START + 40_000) }, { createdAt: tie }, { createdAt: tie }]);
		const sent: string[] = [];
		for (let minute = 2; minute <= 20; minute++) {
			moveTo(time, DAY_START + minute * MINUTE);
			const outcome = await h.poller.poll();
			expect(outcome.error).toBeUndefined();
			sent.push(...uidsOf(outcome.items));
		}
		expect(sent.sort()).toEqual(posted.map((j) => j.uid).sort());
	});
});

describe('a job posted again under its uid with a new createdAt (a repost)', () => {
	it('is not sent again, within the Late Window or hours later, end to end', async () => {
		h = await startHarnessed(time, DAY_START, everyMinutes(15), { jobs: 0 });
		await h.poller.poll();
		moveTo(time, DAY_START + 15 * MINUTE);
		const [job] = h.server.admin.addJobs([{ createdAt: iso(DAY_START + 5 * MINUTE) }]);
		expect(uidsOf((await h.poller.poll()).items)).toEqual([job.uid]);

		// The reference server moves no job: the repost takes it out and adds it again under its uid.
		const repost = (createdMs: number) => {
			expect(h.server.admin.removeJobs([job.uid])).toBe(1);
			h.server.admin.addJobs([{ uid: job.uid, createdAt: iso(createdMs) }]);
		};
		// Posted again 25 minutes later, beside a job that is new.
		moveTo(time, DAY_START + 30 * MINUTE);
		repost(DAY_START + 30 * MINUTE - 1_000);
		const [other] = h.server.admin.addJobs([{ createdAt: iso(DAY_START + 30 * MINUTE - 2_000) }]);
		expect(uidsOf((await h.poller.poll()).items)).toEqual([other.uid]);
		expect(searchOf(h.poller)!.watch!.seen.get(job.uid)).toBe(DAY_START + 30 * MINUTE - 1_000);
		expect(h.poller.logs.at(-1)?.message).toMatch('1 known job posted again (not sent again)');

		// Hours on, other jobs keep coming (20 an hour: enough for the hourly count); once its part of the window is settled, it is posted again.
		for (let poll = 3; poll <= 14; poll++) {
			moveTo(time, DAY_START + poll * 15 * MINUTE);
			const next = h.server.admin.addJobs([1, 2, 3, 4, 5].map((k) => ({ createdAt: iso(DAY_START + poll * 15 * MINUTE - 5 * MINUTE - k * 1_000) })));
			expect(uidsOf((await h.poller.poll()).items).sort()).toEqual(next.map((j) => j.uid).sort());
		}
		expect(searchOf(h.poller)!.watch!.floorMs).toBeGreaterThan(DAY_START + 30 * MINUTE);
		moveTo(time, DAY_START + 3.75 * HOUR);
		repost(DAY_START + 3.75 * HOUR - 1_000);
		expect(await h.poller.poll()).toEqual({ items: [], empty: true });
		expect(h.poller.logs.at(-1)?.message).toMatch('1 known job posted again (not sent again)');
	});
});

describe('the example workflow examples/job-alerts.json', () => {
	const workflow = JSON.parse(readFileSync(join(__dirname, '..', '..', 'examples', 'job-alerts.json'), 'utf8')) as {
		nodes: { name: string; type: string; parameters: INodeParameters }[];
		connections: Record<string, { main: { node: string }[][] }>;
	};
	const trigger = workflow.nodes.find((n) => n.type === JOB_SEARCH_TRIGGER_TYPE)!;

	it('starts with the trigger, feeds a message node, and sets only parameters the trigger has', () => {
		expect(trigger).toBeDefined();
		expect(workflow.connections[trigger.name].main[0][0].node).toBe('Post to Slack');
		const properties = loadNodeTypes().nodes[JOB_SEARCH_TRIGGER_TYPE].description.properties;
		for (const [name, value] of Object.entries(trigger.parameters)) {
			if (name === 'pollTimes') continue; // n8n adds Poll Times to every polling node
			const property = properties.find((p) => p.name === name);
			expect(property).toBeDefined();
			if (property!.type === 'collection') {
				const options = (property!.options ?? []) as { name: string }[];
				for (const key of Object.keys(value as object)) expect(options.map((o) => o.name)).toContain(key);
			}
		}
	});

	it('runs as exported: its filters pass the pre-flight check and the service accepts them', async () => {
		h = await startHarnessed(time, DAY_START, {}, { jobs: 3000 });
		const poller = createPoller({ credentials: { apiKey: h.key, baseUrl: h.server.url }, parameters: trigger.parameters });
		const outcome = await poller.poll('manual');
		expect(outcome.error).toBeUndefined();
	});
});
