import type { INodeProperties } from 'n8n-workflow';

import { JOB_SEARCH_TYPE, loadNodeTypes } from '../harness';
import { clientOp, getJob, runJobSearch, search } from './helpers';
import { useTestService } from '../support/service';

const service = useTestService();

const returnedPairs = (run: { returned: Array<Array<{ pairedItem?: unknown }>> }) => run.returned[0]?.map((i) => i.pairedItem);

describe('pairedItem, as the node returns it (before n8n-core fills in any)', () => {
	it('pairs each job of a search with the item that asked, for more items out than in', async () => {
		const { credentials } = await service.account('pro');
		const run = await runJobSearch(search({ limit: '={{ $json.n }}' }), { credentials, input: [{ n: 2 }, { n: 3 }] });
		expect(returnedPairs(run)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }, { item: 1 }, { item: 1 }]);
	});

	it('pairs the whole-response item of a search with its input item', async () => {
		const { credentials } = await service.account('pro');
		const run = await runJobSearch(search({ limit: 1, options: { output: 'wholeResponse' } }), { credentials, input: [{}, {}] });
		expect(returnedPairs(run)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it.each([
		['Get Job', (uid: string) => getJob(uid)],
		['Get Client Activity', (uid: string) => clientOp('getActivity', uid)],
		['Get Client History', (uid: string) => clientOp('getHistory', uid)],
	])('pairs each %s result with its input item', async (_name, params) => {
		const { credentials } = await service.account('pro');
		const [a, b] = service.server.admin.visibleJobs();
		const run = await runJobSearch(params('={{ $json.uid }}'), { credentials, input: [{ uid: a.uid }, { uid: b.uid }] });
		expect(run.error).toBeUndefined();
		expect(returnedPairs(run)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('pairs passed-through items and error items with their input items', async () => {
		const { credentials } = await service.account('free');
		const [a] = service.server.admin.visibleJobs();
		const passed = await runJobSearch(clientOp('getActivity', '={{ $json.uid }}', { options: { onPremiumNotIncluded: 'passThrough' } }), {
			credentials,
			input: [{ uid: a.uid }, { uid: a.uid }],
		});
		expect(returnedPairs(passed)).toEqual([{ item: 0 }, { item: 1 }]);

		const failed = await runJobSearch(getJob('={{ $json.uid }}'), {
			credentials,
			input: [{ uid: a.uid }, { uid: 'not-a-uid' }, { uid: '7' }],
			continueOnFail: true,
		});
		expect(returnedPairs(failed)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(failed.returned[0].map((i) => i.json.error_code)).toEqual([undefined, 'invalid_input', 'not_found']);
	});
});

describe('Include Usage', () => {
	it('is off by default: no "usage" field unless asked for', async () => {
		const options = loadNodeTypes().nodes[JOB_SEARCH_TYPE].description.properties.find((p) => p.name === 'options');
		expect((options?.options as INodeProperties[]).find((o) => o.name === 'includeUsage')?.default).toBe(false);

		const { credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const runs = [
			await runJobSearch(search({ limit: 2 }), { credentials }),
			await runJobSearch(search({ limit: 2, options: { output: 'wholeResponse' } }), { credentials }),
			await runJobSearch(getJob(job.uid), { credentials }),
			await runJobSearch(clientOp('getActivity', job.uid), { credentials }),
		];
		for (const run of runs) {
			expect(run.output.length).toBeGreaterThan(0);
			for (const item of run.output) expect(item.json).not.toHaveProperty('usage');
		}
		const asked = await runJobSearch(getJob(job.uid, { options: { includeUsage: true } }), { credentials });
		expect(asked.output[0].json.usage).toEqual(expect.objectContaining({ consumedMicrocents: 1_950_000 }));
	});
});

describe('Simplify', () => {
	it('writes what a job pays as one string: an hourly range lower bound first, cents only where there are any', async () => {
		const { credentials } = await service.account('pro');
		const [hourly, single, fixed] = service.server.admin.addJobs([
			{ jobType: 'HOURLY', hourlyRate: 50, budget: { fixedBudget: null, hourlyRate: { min: 25.5, max: 50 } } },
			{ jobType: 'HOURLY', hourlyRate: 40, budget: { fixedBudget: null, hourlyRate: { min: 40, max: 40 } } },
			{ jobType: 'FIXED', hourlyRate: 0, budget: { fixedBudget: 500, hourlyRate: { min: null, max: null } } },
		]);
		const budgetOf = async (uid: string) => (await runJobSearch(getJob(uid), { credentials })).output[0].json.budget;
		expect(await budgetOf(hourly.uid)).toBe('$25.50-$50/h');
		expect(await budgetOf(single.uid)).toBe('$40/h');
		expect(await budgetOf(fixed.uid)).toBe('$500 fixed');
	});
});

describe('which tool each operation calls', () => {
	it.each([
		['Search Jobs', 'search_jobs', search({ limit: 1 })],
		['Get Job', 'get_job', getJob('JOB')],
		['Get Client Activity', 'get_client_activity', clientOp('getActivity', 'JOB')],
		['Get Client History', 'get_client_history', clientOp('getHistory', 'JOB')],
	])('%s calls %s and nothing else', async (_name, tool, params) => {
		const { id, credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const withUid = JSON.parse(JSON.stringify(params).replace('"JOB"', JSON.stringify(job.uid))) as typeof params;
		const run = await runJobSearch(withUid, { credentials });
		expect(run.error).toBeUndefined();
		expect(service.server.admin.callLog(id).map((c) => c.tool)).toEqual([tool]);
	});
});
