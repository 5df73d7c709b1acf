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
	it('refuses a run whose items together could pass the cap before sending any of them, naming the worst case', async () => {
		const { id, credentials } = await service.account('pro');
		// Each search of 10 rows may cost $0.0579: three may cost $0.1737, past $0.12.
		const run = await runJobSearch(search({ limit: 10, options: { maxCreditUsd: 0.12, concurrency: 3 } }), {
			credentials,
			input: [{}, {}, {}],
			continueOnFail: true,
		});
		expect(service.server.admin.callLog(id)).toEqual([]);
		expect(run.output.map((i) => [i.json.error_code, i.pairedItem])).toEqual([0, 1, 2].map((item) => ['credit_cap_reached', { item }]));
		expect(run.output[0].json.error).toBe(
			'Not sent: this execution could cost up to $0.1737, more than its Max Credit per Execution of $0.12 [item 2]',
		);
		expect(run.output[0].json.description).toBe(
			'Worst case: 3 × Search Jobs for up to 30 jobs in all at $0.00579 each. Nothing was sent and nothing was billed. Raise "Max Credit per Execution (USD)" in Options to at least that amount (0 removes the cap), or ask for less.',
		);
	});

	it('sends a run whose worst case reaches the cap exactly, and refuses one a row over it', async () => {
		const { id, credentials } = await service.account('pro');
		// Two searches of 10 rows may cost exactly the cap between them; 10 and 11 rows pass it.
		const capUsd = (2 * 10 * PRICE_MICROCENTS.search_jobs) / 1e8;
		const run = await runJobSearch(search({ limit: 10, options: { maxCreditUsd: capUsd } }), { credentials, input: [{}, {}] });
		expect(run.error).toBeUndefined();
		expect(service.server.admin.callLog(id).map((c) => c.consumedMicrocents)).toEqual([10, 10].map((rows) => rows * PRICE_MICROCENTS.search_jobs));
		const over = await runJobSearch(search({ limit: '={{ $json.limit }}', options: { maxCreditUsd: capUsd } }), {
			credentials,
			input: [{ limit: 10 }, { limit: 11 }],
		});
		expect(over.error?.message).toMatch(/^Not sent: this execution could cost up to \$0\.12159, more than its Max Credit per Execution of \$0\.1158 \[item 1\]$/);
		expect(service.server.admin.callLog(id)).toHaveLength(2);
	});

	it('fails the node without continue on fail, having sent nothing', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ limit: 100, options: { maxCreditUsd: 0.5 } }), { credentials });
		expect(error?.message).toMatch(/^Not sent: this execution could cost up to \$0\.579, more than its Max Credit per Execution of \$0\.5 \[item 0\]$/);
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('keeps the cap when Max Credit comes from an expression as text', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ limit: 100, options: { maxCreditUsd: '={{ "0.5" }}' } }), { credentials });
		expect(error?.message).toMatch(/^Not sent: this execution could cost up to \$0\.579/);
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('counts lookups that share one request once: 60 items asking for one job fit under $1, 60 different jobs do not', async () => {
		const { id, credentials } = await service.account('pro');
		const jobs = service.server.admin.visibleJobs().slice(0, 60);
		expect(jobs).toHaveLength(60);
		const same = await runJobSearch(getJob('={{ $json.uid }}'), { credentials, input: jobs.map(() => ({ uid: jobs[0].uid })) });
		expect(same.error).toBeUndefined();
		expect(service.server.admin.callLog(id)).toHaveLength(1);
		const different = await runJobSearch(getJob('={{ $json.uid }}'), { credentials, input: jobs.map((job) => ({ uid: job.uid })) });
		// 60 × $0.0195 = $1.17, past the default cap of $1 at the 52nd lookup.
		expect(different.error?.message).toBe('Not sent: this execution could cost up to $1.17, more than its Max Credit per Execution of $1.00 [item 51]');
		expect(different.error?.description).toMatch(/^Worst case: 60 × Get Job at \$0\.0195\. Nothing was sent/);
		expect(service.server.admin.callLog(id)).toHaveLength(1);
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
