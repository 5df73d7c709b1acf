import type { INodeParameters } from 'n8n-workflow';

import { PRICE_MICROCENTS } from '../../nodes/JobSearch/service/pricing';
import { useTestService } from '../support/service';
import { clientOp, getJob, runJobSearch } from './helpers';

// A lookup by Job UID answers the same within one execution: items that ask for the same one
// share a single request and a single bill, and each still gets its own output item.

const service = useTestService();

const link = (uid: string) => `https://www.upwork.com/jobs/~02${uid}`;
const fiveItems = Array.from({ length: 5 }, (_, n) => ({ n }));

describe.each([
	['Get Job', 'get_job', (jobUid: INodeParameters['jobUid'], extra?: INodeParameters) => getJob(jobUid as string, extra), PRICE_MICROCENTS.get_job],
	['Get Client Activity', 'get_client_activity', (jobUid: INodeParameters['jobUid'], extra?: INodeParameters) => clientOp('getActivity', jobUid as string, extra), PRICE_MICROCENTS.get_client_activity],
	['Get Client History', 'get_client_history', (jobUid: INodeParameters['jobUid'], extra?: INodeParameters) => clientOp('getHistory', jobUid as string, extra), PRICE_MICROCENTS.get_client_history],
])('%s with one fixed pasted link after five items', (_name, tool, operation, price) => {
	it('makes one billed lookup and outputs five items, each paired with its own input item', async () => {
		const { id, credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const pasted = { __rl: true, mode: 'url', value: link(job.uid) };
		const run = await runJobSearch(operation(pasted as unknown as string, { options: { includeUsage: true } }), { credentials, input: fiveItems });
		expect(run.error).toBeUndefined();
		expect(service.server.admin.callLog(id).map((c) => [c.tool, c.status, c.consumedMicrocents])).toEqual([[tool, 200, price]]);
		expect(run.returned[0].map((i) => i.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		// The bill is on the item that made the lookup; summing "usage" counts it once.
		expect(run.output.map((i) => (i.json.usage as { consumedMicrocents: number }).consumedMicrocents)).toEqual([price, 0, 0, 0, 0]);
	});

	it('gives each item its own copy of the answer, not one object a later node could change for all', async () => {
		const { credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const run = await runJobSearch(operation(job.uid, { simplify: false }), { credentials, input: fiveItems });
		const jsons = run.returned[0].map((i) => i.json);
		expect(new Set(jsons).size).toBe(5);
		for (const json of jsons) expect(json).toEqual(jsons[0]);
	});

	it('shares the lookup with the items that ask while it is still on its way (Concurrency 5)', async () => {
		const { id, credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const run = await runJobSearch(operation(job.uid, { options: { concurrency: 5 } }), { credentials, input: fiveItems });
		expect(run.error).toBeUndefined();
		expect(run.returned[0].map((i) => i.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		expect(service.server.admin.callLog(id)).toHaveLength(1);
	});
});

describe('lookups shared within one execution', () => {
	it('are one per distinct request: another job, or the same job with client history, is looked up again', async () => {
		const { id, credentials } = await service.account('pro');
		const [a, b] = service.server.admin.visibleJobs();
		const input = [{ uid: a.uid, history: false }, { uid: b.uid, history: false }, { uid: a.uid, history: true }, { uid: a.uid, history: false }, { uid: b.uid, history: false }];
		const run = await runJobSearch(getJob('={{ $json.uid }}', { options: { includeClientHistory: '={{ $json.history }}' } }), { credentials, input });
		expect(run.error).toBeUndefined();
		expect(run.output.map((i) => i.json.uid)).toEqual([a.uid, b.uid, a.uid, a.uid, b.uid]);
		expect(run.output.map((i) => i.json.clientHistory !== undefined)).toEqual([false, false, true, false, false]);
		expect(service.server.admin.callLog(id)).toHaveLength(3);
	});

	it('are not kept from one execution to the next', async () => {
		const { id, credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		await runJobSearch(getJob(job.uid), { credentials, input: fiveItems });
		await runJobSearch(getJob(job.uid), { credentials, input: fiveItems });
		expect(service.server.admin.callLog(id)).toHaveLength(2);
	});

	it('share no refusal: with "On Error" set to continue, each item asking for an unknown job gets its own error, naming its item', async () => {
		const { credentials } = await service.account('pro');
		const run = await runJobSearch(getJob('7'), { credentials, input: fiveItems.slice(0, 3), continueOnFail: true });
		expect(run.output.map((i) => [i.json.error_code, String(i.json.error).match(/\[item \d\]/)?.[0]])).toEqual([
			['not_found', '[item 0]'],
			['not_found', '[item 1]'],
			['not_found', '[item 2]'],
		]);
		expect(run.returned[0].map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});
