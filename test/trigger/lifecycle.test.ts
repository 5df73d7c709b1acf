import { readFileSync } from 'fs';
import { join } from 'path';
import type { INodeParameters } from 'n8n-workflow';

import { PRICE_MICROCENTS } from '../../nodes/JobSearch/service/pricing';
import { JOB_SEARCH_TRIGGER_TYPE, loadNodeTypes } from '../harness';
import { createPoller } from '../harness/poll';
import { DAY_START, FAKE_DATE_ONLY, HOUR, MINUTE, VERIFIED_CLIENTS, startHarnessed, type Harnessed, type TimeControl } from './scriptedDay';
import { startSlowProxy } from '../support/proxy';

// Activation, "Fetch Test Event", bounded polls and clear failures, each in real n8n-core's
// PollContext against the reference server in live mode.

const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };
const LIVE = { postingsPerHour: 60, minLagMs: MINUTE, maxLagMs: 15 * MINUTE };

beforeAll(() => jest.useFakeTimers(FAKE_DATE_ONLY));
afterAll(() => jest.useRealTimers());

let h: Harnessed;
afterEach(async () => h && (await h.server.close()));

const snapshot = () => JSON.stringify(h.poller.staticData());
const uidsOf = (items: { json: { uid?: unknown } }[]) => items.map((i) => String(i.json.uid));

describe('on activation and in the editor', () => {
	it('emits nothing on the first poll even when matching jobs are visible, then only what is new', async () => {
		h = await startHarnessed(time, DAY_START, {}, { jobs: 0, live: LIVE });
		h.server.admin.addJobs([1, 3, 8].map((m) => ({ createdAt: new Date(DAY_START - m * MINUTE).toISOString() })));
		const atActivation = new Set(h.server.admin.visibleJobs().map((j) => j.uid));
		const first = await h.poller.poll();
		expect(first.error).toBeUndefined();
		expect(first.empty).toBe(true);
		expect(h.poller.staticData()).toMatchObject({ head: new Date(DAY_START - MINUTE).toISOString(), lastPoll: new Date(DAY_START).toISOString() });
		time.set(DAY_START + 30 * MINUTE);
		const second = await h.poller.poll();
		const appeared = h.server.admin.visibleJobs().filter((j) => !atActivation.has(j.uid));
		expect(appeared.length).toBeGreaterThan(5);
		expect(uidsOf(second.items)).toEqual(appeared.map((j) => j.uid));
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
		time.set(DAY_START + 40 * MINUTE);
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

	it('refuses a window key in Additional Filters before spending anything', async () => {
		h = await startHarnessed(time, DAY_START, { additionalFilters: '{"fromDate": "2026-01-01T00:00:00Z"}' });
		const outcome = await h.poller.poll();
		expect(outcome.error?.message).toMatch(/Additional Filters \(JSON\) sets "fromDate", which the trigger sets itself/);
		expect(h.server.admin.callLog(h.accountId)).toEqual([]);
	});

	it('refuses a filter value the service would reject, naming the field, before any request', async () => {
		h = await startHarnessed(time, DAY_START, { additionalFilters: '{"budget.jobDurations": ["FOREVER"]}' });
		const outcome = await h.poller.poll();
		expect(outcome.error?.message).toMatch(/budget\.jobDurations/);
		expect(h.server.admin.callLog(h.accountId)).toEqual([]);
		expect(h.poller.staticData()).toEqual({});
	});
});

describe('within one poll', () => {
	it('sends at most Max Jobs per Poll and the rest on the next polls, none twice', async () => {
		h = await startHarnessed(time, DAY_START, { options: { maxJobsPerPoll: 40, rowsPerRequest: 15 } }, { jobs: 0 });
		await h.poller.poll();
		h.server.admin.addJobs(Array.from({ length: 100 }, (_, i) => ({ createdAt: new Date(DAY_START + i * 1000).toISOString() })));
		const emitted: string[] = [];
		for (let poll = 1; poll <= 6; poll++) {
			time.set(DAY_START + poll * MINUTE * 5);
			const outcome = await h.poller.poll();
			expect(outcome.items.length).toBeLessThanOrEqual(40);
			emitted.push(...uidsOf(outcome.items));
		}
		expect(new Set(emitted).size).toBe(emitted.length);
		expect(emitted).toHaveLength(100);
		expect(h.poller.logs.some((l) => /poll budget reached/.test(l.message))).toBe(true);
	});

	it('uses the poll budget of newer n8n when the context offers one', async () => {
		h = await startHarnessed(time, DAY_START, {}, { jobs: 0 });
		// A slow host: each answer comes 5 s after its request, past 80% of a 5-second poll.
		const proxy = await startSlowProxy(h.server.url, 5_000, time);
		try {
			const withBudget = createPoller({
				credentials: { apiKey: h.key, baseUrl: proxy.url },
				parameters: { options: { rowsPerRequest: 10 } },
				pollBudgetMs: 5_000,
			});
			await withBudget.poll();
			h.server.admin.addJobs(Array.from({ length: 30 }, (_, i) => ({ createdAt: new Date(DAY_START + i * 1000).toISOString() })));
			time.set(DAY_START + MINUTE);
			const outcome = await withBudget.poll();
			expect(outcome.items).toHaveLength(10);
			expect(withBudget.staticData()).toHaveProperty('gap');
		} finally {
			await proxy.close();
		}
	});
});

describe('when the key or the credit fails', () => {
	it('fails with the clear out-of-credit message, keeps its state and catches up after a top-up', async () => {
		h = await startHarnessed(time, DAY_START, {}, { jobs: 0, live: LIVE });
		await h.poller.poll();
		time.set(DAY_START + 30 * MINUTE);
		h.server.admin.setBalance(h.accountId, { poolMicrocents: 0, packMicrocents: 0 });
		const state = snapshot();
		const failed = await h.poller.poll();
		expect(failed.error?.message).toMatch(/out of credit/i);
		expect(snapshot()).toBe(state);
		h.server.admin.setBalance(h.accountId, { poolMicrocents: 10 ** 12 });
		time.set(DAY_START + 40 * MINUTE);
		const next = await h.poller.poll();
		const expected = h.server.admin.visibleJobs().filter((j) => Date.parse(j.createdAt) > DAY_START).map((j) => j.uid);
		expect(uidsOf(next.items).sort()).toEqual(expected.sort());
	});

	it('fails with the clear invalid-key message and sets no cursor', async () => {
		h = await startHarnessed(time, DAY_START, {}, { jobs: 0 });
		const wrong = createPoller({ credentials: { apiKey: 'gm_notARealKey', baseUrl: h.server.url } });
		const outcome = await wrong.poll();
		expect(outcome.error?.message).toMatch(/API key is missing, wrong or revoked/);
		expect(wrong.staticData()).toEqual({});
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
