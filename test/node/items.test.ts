import { recordingSleep, takeWaits } from '../support/sleeps';

jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import { Pacer } from '../../nodes/JobSearch/actions/common/executionLimits';
import { PRICE_MICROCENTS } from '../../nodes/JobSearch/service/pricing';
import { startProxy } from '../support/proxy';
import { getJob, runJobSearch, search } from './helpers';
import { useTestService } from '../support/service';

const service = useTestService({ faults: true });

describe('many input items', () => {
	it.each([
		[1, undefined],
		[3, 3],
	])('keeps at most %i request(s) in flight and pairs every output with its item', async (expected, concurrency) => {
		const { credentials } = await service.account('enterprise');
		// The first `expected` requests are held until all have arrived: that many in flight is
		// certain on any machine; the delay gives a node that sent more the time to be seen.
		const proxy = await startProxy(service.server.url, { holdFirst: expected });
		try {
			const jobs = service.server.admin.visibleJobs().slice(0, 12);
			service.server.admin.injectFault({ kind: 'delay', delayMs: 30, times: jobs.length, tool: 'get_job' });
			const run = await runJobSearch(getJob('={{ $json.uid }}', { options: concurrency ? { concurrency } : {} }), {
				credentials: { ...credentials, baseUrl: proxy.url },
				input: jobs.map((j) => ({ uid: j.uid })),
			});
			expect(run.error).toBeUndefined();
			expect(run.output.map((i) => [i.json.uid, i.pairedItem])).toEqual(jobs.map((j, item) => [j.uid, { item }]));
			expect(proxy.maxInFlight()).toBe(expected);
		} finally {
			await proxy.close();
		}
	});

	it('spaces request starts by Min Interval Between Requests across concurrent items', async () => {
		// The waits the node asks for are what it controls: with a minute between requests, item
		// n starts n minutes after the first (less the moments the run itself took), whatever
		// the speed of the machine. The waits are recorded, not waited out.
		const { id, credentials } = await service.account('enterprise');
		const jobs = service.server.admin.visibleJobs().slice(0, 4);
		const minute = 60_000;
		takeWaits();
		const run = await runJobSearch(getJob('={{ $json.uid }}', { options: { minIntervalMs: minute, concurrency: 4 } }), {
			credentials,
			input: jobs.map((j) => ({ uid: j.uid })),
		});
		expect(run.error).toBeUndefined();
		expect(service.server.admin.callLog(id)).toHaveLength(4);
		const waits = takeWaits().sort((a, b) => a - b);
		expect(waits).toHaveLength(3);
		waits.forEach((wait, i) => {
			expect(wait).toBeLessThanOrEqual((i + 1) * minute);
			expect(wait).toBeGreaterThan((i + 1) * minute - 10_000);
		});
	});

	it('asks for no wait without a Min Interval', async () => {
		const { credentials } = await service.account('enterprise');
		const jobs = service.server.admin.visibleJobs().slice(0, 3);
		takeWaits();
		await runJobSearch(getJob('={{ $json.uid }}', { options: { concurrency: 3 } }), { credentials, input: jobs.map((j) => ({ uid: j.uid })) });
		expect(takeWaits()).toEqual([]);
	});
});

describe('the pacer', () => {
	it('gives each caller the next free start, an interval after the one before, on an injected clock', async () => {
		let now = 1_000;
		const slept: number[] = [];
		const pacer = new Pacer(80, { now: () => now, sleep: async (ms) => void slept.push(ms) });
		await Promise.all([pacer.wait(), pacer.wait(), pacer.wait(), pacer.wait()]);
		expect(slept).toEqual([80, 160, 240]);
		now += 500; // long after the last start: no wait
		await pacer.wait();
		now += 10; // 10 ms after that start: wait the rest of the interval
		await pacer.wait();
		expect(slept).toEqual([80, 160, 240, 70]);
	});

	it('never waits for an interval of 0 or one that is not a number', async () => {
		const slept: number[] = [];
		for (const interval of [0, -5, Number.NaN]) {
			const pacer = new Pacer(interval, { now: () => 0, sleep: async (ms) => void slept.push(ms) });
			await Promise.all([pacer.wait(), pacer.wait()]);
		}
		expect(slept).toEqual([]);
	});
});

describe('Max Credit per Execution', () => {
	it('stops before the request that could pass the cap, even with items in parallel', async () => {
		const { id, credentials } = await service.account('pro');
		// Each search of 10 rows may cost $0.0579: two fit under $0.12, a third could not.
		const run = await runJobSearch(search({ limit: 10, options: { maxCreditUsd: 0.12, concurrency: 3 } }), {
			credentials,
			input: [{}, {}, {}],
			continueOnFail: true,
		});
		expect(service.server.admin.callLog(id)).toHaveLength(2);
		const errors = run.output.filter((i) => i.json.error_code);
		expect(errors).toHaveLength(1);
		expect(errors[0].json.error).toMatch(/^Stopped before Search Jobs: it could cost up to \$0\.0579.*\$0\.12 cap \[item \d\]$/);
		expect(run.output.filter((i) => i.json.uid)).toHaveLength(20);
	});

	it('sends a request whose worst case reaches the cap exactly, and stops the next one', async () => {
		const { id, credentials } = await service.account('pro');
		// Two searches of 10 rows may cost exactly the cap between them; a third could pass it.
		const capUsd = (2 * 10 * PRICE_MICROCENTS.search_jobs) / 1e8;
		const run = await runJobSearch(search({ limit: 10, options: { maxCreditUsd: capUsd } }), { credentials, input: [{}, {}, {}], continueOnFail: true });
		expect(service.server.admin.callLog(id).map((c) => c.consumedMicrocents)).toEqual([10, 10].map((rows) => rows * PRICE_MICROCENTS.search_jobs));
		expect(run.output.filter((i) => i.json.uid)).toHaveLength(20);
		expect(run.output.filter((i) => i.json.error_code).map((i) => [i.json.error_code, i.pairedItem])).toEqual([['credit_cap_reached', { item: 2 }]]);
	});

	it('fails the node without continue on fail, having sent nothing past the cap', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ limit: 100, options: { maxCreditUsd: 0.5 } }), { credentials });
		expect(error?.message).toMatch(/^Stopped before Search Jobs: it could cost up to \$0\.579/);
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('keeps the cap when Max Credit comes from an expression as text', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ limit: 100, options: { maxCreditUsd: '={{ "0.5" }}' } }), { credentials });
		expect(error?.message).toMatch(/^Stopped before Search Jobs: it could cost up to \$0\.579/);
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('releases what a call did not use, so a search returning fewer rows than its Limit leaves room for the next', async () => {
		const { id, credentials } = await service.account('pro');
		// Limit 100 reserves $0.579; a cap of $0.60 fits the second search only if the first,
		// which matches 1 job, gives back what it did not spend.
		const [job] = service.server.admin.visibleJobs();
		const run = await runJobSearch(
			search({ limit: 100, basicFilters: { fromDate: job.createdAt }, options: { maxCreditUsd: 0.6 } }),
			{ credentials, input: [{}, {}] },
		);
		expect(run.error).toBeUndefined();
		expect(service.server.admin.callLog(id)).toHaveLength(2);
	});

	it('counts an attempt that got no answer as spent, so a retry that could pass the cap is not sent', async () => {
		const { id, credentials } = await service.account('pro');
		service.server.admin.injectFault({ kind: 'drop', tool: 'get_job', times: 1 });
		const [job] = service.server.admin.visibleJobs();
		// One lookup costs $0.0195: the dropped attempt may have been billed, so a retry could
		// make it $0.039, past the $0.03 cap.
		const { error } = await runJobSearch(getJob(job.uid, { options: { maxCreditUsd: 0.03 } }), { credentials });
		expect(error?.message).toMatch(/^Stopped before Get Job: it could cost up to \$0\.0195, and this execution has already used \$0\.0195/);
		expect(service.server.admin.callLog(id)).toEqual([]);

		service.server.admin.injectFault({ kind: 'drop', tool: 'get_job', times: 1 });
		const roomy = await runJobSearch(getJob(job.uid, { options: { maxCreditUsd: 0.04 } }), { credentials });
		expect(roomy.error).toBeUndefined();
		expect(service.server.admin.callLog(id)).toHaveLength(1);
	});
});
