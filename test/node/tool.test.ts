import { TOOL_DESCRIPTION_CHARS } from '../../nodes/JobSearch/output';
import { getJob, runJobSearch, search } from './helpers';
import { startTestService, useTestService } from '../support/service';
import { callAsTool, fromAi } from './toolHarness';
import { startProxy } from '../support/proxy';

const service = useTestService();

describe('Job Search as an AI Agent tool', () => {
	it('answers a search with compact jobs whose long descriptions are cut, saying how to read the rest', async () => {
		const { credentials } = await service.account('enterprise');
		const { jobs, description } = await callAsTool(search({ limit: fromAi('limit', 'number'), toolMaxJobs: 300, options: { maxCreditUsd: 2 } }), { limit: 300 }, credentials);
		expect(jobs).toHaveLength(300);
		const visible = service.server.admin.visibleJobs();
		const fullText = new Map(visible.map((j) => [j.uid, j.description]));
		const links = new Map(visible.map((j) => [j.uid, j.externalLink]));
		let cut = 0;
		for (const job of jobs) {
			expect(Object.keys(job)).toEqual(expect.arrayContaining(['uid', 'title', 'url', 'postedAt', 'connectsToApply', 'client', 'description']));
			// The same link Simplify gives, so the model never guesses one nor pays a Get Job for it.
			expect(job.url).toBe(links.get(job.uid as string));
			const text = job.description as string;
			const full = fullText.get(job.uid as string)!.replace(/\s+/g, ' ');
			expect(text.length).toBeLessThanOrEqual(TOOL_DESCRIPTION_CHARS);
			if (full.length > TOOL_DESCRIPTION_CHARS) {
				cut++;
				expect(text).toMatch(/…$/);
				expect(full.startsWith(text.slice(0, -1))).toBe(true);
			} else expect(text).toBe(full);
		}
		expect(cut).toBeGreaterThan(0);
		expect(description).toMatch(/call Get Job with its uid/);
	});

	it('caps a model asking for Return All at Max Jobs per Tool Call, and bills only those rows', async () => {
		const { id, credentials } = await service.account('pro');
		const { jobs } = await callAsTool(
			search({ returnAll: fromAi('returnAll', 'boolean'), limit: fromAi('limit', 'number') }),
			{ returnAll: true, limit: 5000 },
			credentials,
		);
		expect(jobs).toHaveLength(20);
		expect(service.server.admin.callLog(id).map((c) => c.consumedMicrocents)).toEqual([20 * 579_000]);
	});

	it("tells the model how many jobs matched in all, and that the tool's row cap cut the rows", async () => {
		const { credentials } = await service.account('pro');
		const { result } = await callAsTool(search({ limit: fromAi('limit', 'number') }), { limit: 100 }, credentials);
		const total = service.server.admin.visibleJobs().length;
		expect(result).toEqual({ total, jobs: expect.any(Array), note: expect.any(String) });
		expect(result!.note).toBe(
			`Returned 20 of ${total} matching jobs, newest first: capped by the tool's row cap of 20 per call (100 were asked). Ask with narrower filters (a shorter search period, more keywords, a budget) rather than for more rows.`,
		);
	});

	it('tells the model that a total of whole thousands, as search engines report large counts, is "at least" that many', async () => {
		const { credentials } = await service.account('pro');
		// A search engine in front of the service that reports its count in whole thousands (1,000 for these 300 jobs).
		const rounding = await startProxy(service.server.url, {
			reshapeAnswer: (answer) => {
				const data = answer.data as { total?: number } | undefined;
				if (data?.total !== undefined) data.total = Math.max(1_000, data.total);
			},
		});
		try {
			const { result } = await callAsTool(search({ limit: fromAi('howMany', 'number') }), { howMany: 3 }, { ...credentials, baseUrl: rounding.url });
			expect(result!.total).toBe(1_000);
			expect(result!.note).toMatch(/^Returned 3 of at least 1,000 matching jobs, newest first, /);
		} finally {
			await rounding.close();
		}
	});

	it('tells the model more may match where it returned as many jobs as a total of whole thousands says', async () => {
		const big = await startTestService({ jobs: 1_500 });
		// A search engine in front of the service that rounds its count down to the thousand: 1,500 are reported as 1,000.
		const rounding = await startProxy(big.server.url, {
			reshapeAnswer: (answer) => {
				const data = answer.data as { total?: number } | undefined;
				if (data?.total !== undefined && data.total >= 1_000) data.total = Math.floor(data.total / 1_000) * 1_000;
			},
		});
		try {
			const { credentials } = await big.account('enterprise');
			const tool = search({ limit: fromAi('howMany', 'number'), toolMaxJobs: 1_000, options: { maxCreditUsd: 0 } });
			const { result } = await callAsTool(tool, { howMany: 1_000 }, { ...credentials, baseUrl: rounding.url });
			expect(result!.jobs).toHaveLength(1_000);
			expect(result!.note).toMatch(/^Returned 1,000 of at least 1,000 matching jobs, newest first, as many as the limit asked \(1,000\)\./);
		} finally {
			await rounding.close();
			await big.server.close();
		}
	});

	it('tells the model that its own limit cut the rows, and by which argument to get more', async () => {
		const { credentials } = await service.account('pro');
		const { result } = await callAsTool(search({ limit: fromAi('howMany', 'number') }), { howMany: 3 }, credentials);
		expect(result!.jobs).toHaveLength(3);
		expect(result!.note).toMatch(/^Returned 3 of \d+ matching jobs, newest first, as many as the limit asked \(3\)\. For others, raise "howMany" \(up to 20\) or narrow the filters\.$/);
	});

	it('says plainly that no job matched, in one answer, and bills nothing', async () => {
		const { id, credentials } = await service.account('pro');
		const { answer } = await callAsTool(
			search({ keywordFilters: { includeKeywordsKeywords: fromAi('keywords', 'string') } }),
			{ keywords: 'no posting says this' },
			credentials,
		);
		expect(answer).toBe(
			'[{"total":0,"jobs":[],"note":"No job matched these filters. Nothing was charged. Widen them to find some, e.g. a longer search period or fewer keywords."}]',
		);
		expect(service.server.admin.callLog(id).map((c) => c.consumedMicrocents)).toEqual([0]);
	});

	it('adds no note when every matching job is in the answer', async () => {
		const { credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const { result } = await callAsTool(
			search({ keywordFilters: { includeKeywordsKeywords: fromAi('keywords', 'string'), includeKeywordsMatchTitle: true } }),
			{ keywords: job.title },
			credentials,
		);
		expect(result!.total).toBe((result!.jobs as unknown[]).length);
		expect(result).not.toHaveProperty('note');
	});

	it('returns more per call only when the user raises the cap', async () => {
		const { credentials } = await service.account('pro');
		const { jobs } = await callAsTool(search({ limit: fromAi('limit', 'number'), toolMaxJobs: 30 }), { limit: 100 }, credentials);
		expect(jobs).toHaveLength(30);
	});

	it('refuses "limit" in Additional Filters in a workflow too, before any item is billed', async () => {
		const { id, credentials } = await service.account('pro');
		const { error, output } = await runJobSearch(search({ limit: 5, options: { additionalFilters: '{"limit": 500}' } }), { credentials, input: [{}, {}] });
		expect(output).toEqual([]);
		expect(error?.message).toBe('Additional Filters (JSON) sets "limit", which the node sets itself. Remove it and use "Limit" instead [item 0]');
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('gives the model a Get Job answer with the whole description and the screening questions', async () => {
		const { credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const { jobs, description } = await callAsTool(getJob(fromAi('uid', 'string')), { uid: job.uid }, credentials);
		expect(jobs[0]).toEqual(expect.objectContaining({ uid: job.uid, description: job.description, questions: job.questions }));
		expect(description).toMatch(/^Get one Upwork job in full by its uid/);
	});

	it('leaves the same node in a workflow as it was: Limit and Return All apply, the simplified job has every field', async () => {
		const { credentials } = await service.account('pro');
		const { output } = await runJobSearch(search({ limit: 30 }), { credentials });
		expect(output).toHaveLength(30);
		expect(output[0].json).toEqual(expect.objectContaining({ url: expect.any(String), description: expect.any(String) }));
	});
});
