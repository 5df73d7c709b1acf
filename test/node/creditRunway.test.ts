import type { ServerResponse } from 'http';
import type { IDataObject, INodeParameters, NodeExecutionHint, WorkflowExecuteMode } from 'n8n-workflow';

import { createManualClock } from '../../server';
import { UPGRADE_URL } from '../../server/plans';
import { PRICE_MICROCENTS } from '../../nodes/JobSearch/service/pricing';
import { DAY_MS, HOUR_MS } from '../../nodes/JobSearch/service/runway';
import { RUNWAY_KEY } from '../../nodes/JobSearch/actions/common/creditRunway';
import { hintsOf, runJobSearch, search, type NodeRun } from './helpers';
import { useTestService } from '../support/service';
import { answer, startScriptedHost } from '../support/hosts';

// The credit-runway hint of the Job Search node, in real n8n-core against the reference server:
// executions at a schedule (the node's clock is Jest's fake Date, nothing waits), the workflow's
// static data saved and loaded between them as n8n does.

/** Jest's fake timers, faking only Date: fastify, axios and n8n-core keep their real timers. */
const FAKE_DATE_ONLY = {
	doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'],
} satisfies Parameters<typeof jest.useFakeTimers>[0];

const T0 = Date.parse('2026-12-01T08:00:00.000Z');
/** What one run of `search()` (5 jobs) costs. */
const RUN = 5 * PRICE_MICROCENTS.search_jobs;
const DASHBOARD = 'top up or upgrade in your account dashboard';

beforeAll(() => jest.useFakeTimers(FAKE_DATE_ONLY));
afterAll(() => jest.useRealTimers());
const service = useTestService({ clock: createManualClock(Date.parse('2026-11-30T12:00:00.000Z')) });

/**
 * One workflow (its static data kept between executions as n8n keeps it: saved after a run only
 * when the run marked it changed, and never after a manual one) running on one account.
 */
function workflowOn(credentials: Parameters<typeof runJobSearch>[1]['credentials']) {
	let saved: IDataObject = {};
	return {
		saved: () => saved,
		async runAt(atMs: number, parameters: INodeParameters = search(), mode: WorkflowExecuteMode = 'trigger'): Promise<NodeRun> {
			jest.setSystemTime(atMs);
			const staticData = JSON.parse(JSON.stringify(saved)) as IDataObject;
			const run = await runJobSearch(parameters, { credentials, mode, staticData });
			const changed = (staticData as { __dataChanged?: boolean }).__dataChanged === true;
			if (changed && mode !== 'manual') saved = JSON.parse(JSON.stringify(staticData)) as IDataObject;
			return run;
		},
	};
}

describe('the credit-runway hint in the output panel', () => {
	it('warns once the credit left lasts less than a week at the pace of a run every 6 hours, and not at a week exactly', async () => {
		// After the third run one account has exactly a week left (28 runs at 4 a day), the other one microcent less.
		const week = await service.account('free', { poolMicrocents: 31 * RUN, packMicrocents: 0 });
		const short = await service.account('free', { poolMicrocents: 31 * RUN - 1, packMicrocents: 0 });
		const onWeek = workflowOn(week.credentials);
		const onShort = workflowOn(short.credentials);
		const weekHints: NodeExecutionHint[][] = [];
		const shortHints: NodeExecutionHint[][] = [];
		for (let run = 0; run < 4; run++) {
			const at = T0 + run * 6 * HOUR_MS;
			const a = await onWeek.runAt(at);
			const b = await onShort.runAt(at);
			expect([a.error, b.error]).toEqual([undefined, undefined]);
			expect(a.output).toHaveLength(5);
			weekHints.push(hintsOf(a));
			shortHints.push(hintsOf(b));
		}
		expect(weekHints.slice(0, 3)).toEqual([[], [], []]);
		expect(weekHints[3]).toEqual([
			{
				message: `$0.78165 left: about 27 more runs like this one, about 6 days at this workflow's pace; ${DASHBOARD}`,
				type: 'warning',
				location: 'outputPane',
			},
		]);
		expect(shortHints.slice(0, 2)).toEqual([[], []]);
		expect(shortHints[2].map((h) => h.message)).toEqual([`$0.8106 left: about 27 more runs like this one, about 6 days at this workflow's pace; ${DASHBOARD}`]);
		expect(service.server.admin.balance(short.id).totalMicrocents).toBe(27 * RUN - 1);
	});

	it("warns below the user's Warn Below Credit, not at it, and says only the runs while there is no pace (a manual run)", async () => {
		const threshold = 10_000_000; // $0.10
		const options = { options: { warnBelowCreditUsd: 0.1 } };
		const { id, credentials } = await service.account('free', { poolMicrocents: threshold + 2 * RUN, packMicrocents: 0 });
		const workflow = workflowOn(credentials);
		const atThreshold = await workflow.runAt(T0, search({ ...options }), 'manual');
		expect(service.server.admin.balance(id).totalMicrocents).toBe(threshold + RUN);
		const stillAbove = await workflow.runAt(T0 + HOUR_MS, search({ ...options }), 'manual');
		expect(service.server.admin.balance(id).totalMicrocents).toBe(threshold);
		expect([hintsOf(atThreshold), hintsOf(stillAbove)]).toEqual([[], []]);

		// The same credit left without a threshold: 2 more runs and no pace are no reason to warn.
		const without = await workflow.runAt(T0 + 2 * HOUR_MS, search(), 'manual');
		expect(service.server.admin.balance(id).totalMicrocents).toBe(threshold - RUN);
		expect(hintsOf(without)).toEqual([]);
		service.server.admin.setBalance(id, { poolMicrocents: threshold });
		const below = await workflow.runAt(T0 + 3 * HOUR_MS, search({ ...options }), 'manual');
		expect(service.server.admin.balance(id).totalMicrocents).toBe(threshold - RUN);
		expect(hintsOf(below)).toEqual([
			{ message: `$0.07105 left: about 2 more runs like this one; ${DASHBOARD}`, type: 'warning', location: 'outputPane' },
		]);
	});

	it('changes nothing in the static data on a manual run, and tells it the pace of the scheduled runs', async () => {
		const { id, credentials } = await service.account('free', { poolMicrocents: 20 * RUN, packMicrocents: 0 });
		const workflow = workflowOn(credentials);
		await workflow.runAt(T0);
		await workflow.runAt(T0 + DAY_MS);
		const before = JSON.stringify(workflow.saved());
		expect(workflow.saved()).toEqual({ 'node:Job Search': { [RUNWAY_KEY]: { pace: { sinceMs: T0, buckets: [[T0 + DAY_MS, RUN]] } } } });

		jest.setSystemTime(T0 + DAY_MS + HOUR_MS);
		const staticData = JSON.parse(before) as IDataObject;
		const manual = await runJobSearch(search(), { credentials, mode: 'manual', staticData });
		expect(manual.error).toBeUndefined();
		// 17 runs left at one run a day: no warning.
		expect(hintsOf(manual)).toEqual([]);
		service.server.admin.setBalance(id, { poolMicrocents: 6 * RUN });
		const low = await runJobSearch(search(), { credentials, mode: 'manual', staticData });
		expect(hintsOf(low).map((h) => h.message)).toEqual([`$0.14475 left: about 5 more runs like this one, about 5 days at this workflow's pace; ${DASHBOARD}`]);
		expect(JSON.stringify(staticData)).toBe(before);
		expect((staticData as { __dataChanged?: boolean }).__dataChanged).not.toBe(true);
	});
});

describe('answers that arrive out of order (Concurrency)', () => {
	it('takes the smallest credit left of the run, not that of the last answer to arrive', async () => {
		const envelope = (remainingMicrocents: number) => ({
			data: { jobs: [{ uid: '1', title: 'A job', hourlyRate: 10, createdAt: '2026-11-30T11:00:00.000Z' }], total: 1 },
			usage: { consumedMicrocents: PRICE_MICROCENTS.search_jobs, remainingMicrocents },
		});
		// The service served the first request first; its answer reaches n8n after the second one's.
		let first: ServerResponse | undefined;
		const host = await startScriptedHost((_request, res, index) => {
			if (index === 0) first = res;
			else {
				answer(res, 200, envelope(90_000_000));
				setImmediate(() => first && answer(first, 200, envelope(90_000_000 + PRICE_MICROCENTS.search_jobs)));
			}
		});
		try {
			jest.setSystemTime(T0);
			const run = await runJobSearch(search({ limit: 1, options: { concurrency: 2, warnBelowCreditUsd: 5 } }), {
				credentials: { apiKey: 'gm_outOfOrderTestKey', baseUrl: host.url },
				input: [{}, {}],
			});
			expect(run.error).toBeUndefined();
			expect(host.requests()).toHaveLength(2);
			expect(hintsOf(run).map((h) => h.message)).toEqual([`$0.9 left: about 77 more runs like this one; ${DASHBOARD}`]);
		} finally {
			await host.close();
		}
	});
});

describe('running out', () => {
	it('warns as the credit runs low, stops with the clear 402 (needed, available, upgrade link), and then names the top-up address', async () => {
		const { id, credentials } = await service.account('free', { poolMicrocents: 3.5 * RUN, packMicrocents: 0 });
		const workflow = workflowOn(credentials);
		const day = (d: number) => T0 + d * DAY_MS;
		const messages = async (d: number) => hintsOf(await workflow.runAt(day(d))).map((h) => h.message);

		expect(await messages(0)).toEqual([]);
		expect(await messages(1)).toEqual([`$0.043425 left: about 1 more run like this one, about 1 day at this workflow's pace; ${DASHBOARD}`]);
		expect(await messages(2)).toEqual([`$0.014475 left: not enough for another run like this one ($0.02895); ${DASHBOARD}`]);
		// The service serves a call while any credit is left and charges what is left.
		expect(await messages(3)).toEqual([`$0 left: not enough for another run like this one ($0.014475); ${DASHBOARD}`]);

		const refused = await workflow.runAt(day(4), search({ options: { maxRetries: 3 } }));
		expect(refused.error?.message).toBe('Out of credit: Your monthly pool and prepaid packs are both empty. There is no overage: top up a credit pack or wait for the pool to renew. [item 0]');
		expect(refused.error?.description).toContain(`Needed: $0.02895 (${RUN} microcents). Available: $0 (0 microcents).`);
		expect(refused.error?.description).toContain('Upgrade to Pro for a larger monthly pool, or buy a credit pack.');
		expect(refused.error?.description).toContain(`Top up or upgrade: ${UPGRADE_URL}`);
		expect((refused.error as { failure?: unknown }).failure).toEqual({ cause: 'quota-exhausted' });
		expect(service.server.admin.callLog(id).map((c) => c.status)).toEqual([200, 200, 200, 200, 402]);

		service.server.admin.setBalance(id, { poolMicrocents: 4 * RUN });
		// 3.5 runs' worth spent over 5 days: 3 runs left last about 4 days.
		expect(await messages(5)).toEqual([`$0.08685 left: about 3 more runs like this one, about 4 days at this workflow's pace; top up at ${UPGRADE_URL}`]);
	});
});
