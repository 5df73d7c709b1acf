import { readFileSync } from 'fs';
import { join } from 'path';

import { PACKAGE_VERSION, USER_AGENT } from '../../nodes/JobSearch/transport';
import { createManualClock } from '../../server/clock';
import { clientOp, getJob, runJobSearch, search, type NodeRun } from './helpers';
import { useTestService, startTestService } from '../support/service';

const hintsOf = (run: NodeRun) => run.run.data.resultData.runData['Job Search']?.[0]?.hints ?? [];

const service = useTestService();

describe('Search Jobs', () => {
	it('returns one simplified item per job, newest first, with pairedItem', async () => {
		const { credentials } = await service.account('pro');
		const { output, error } = await runJobSearch(search({ limit: 4 }), { credentials });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(4);
		for (const item of output) {
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json).toEqual(
				expect.objectContaining({ uid: expect.stringMatching(/^\d+$/), title: expect.any(String), url: expect.any(String) }),
			);
			expect(item.json.client).toBeUndefined();
		}
		const times = output.map((i) => Date.parse(i.json.createdAt as string));
		expect([...times].sort((a, b) => b - a)).toEqual(times);
	});

	it('returns the full job records when Simplify is off', async () => {
		const { credentials } = await service.account('pro');
		const { output } = await runJobSearch(search({ limit: 2, simplify: false }), { credentials });
		expect(output[0].json).toEqual(expect.objectContaining({ client: expect.any(Object), description: expect.any(String) }));
	});

	it('sends the filters from the generated fields and Additional Filters, and the service applies them', async () => {
		const { credentials } = await service.account('pro');
		const { output, error } = await runJobSearch(
			search({
				limit: 50,
				simplify: false,
				budgetFilters: { budgetConnectsPriceMax: 6 },
				clientFilters: { clientIncludeLocations: 'us, gb' },
				options: { additionalFilters: JSON.stringify({ 'client.paymentMethodVerified': true }) },
			}),
			{ credentials },
		);
		expect(error).toBeUndefined();
		expect(output.length).toBeGreaterThan(0);
		for (const { json } of output) {
			const job = json as { applicationCost: number; client: { countryCode: string; paymentMethodVerified: boolean } };
			expect(job.applicationCost).toBeLessThanOrEqual(6);
			expect(['US', 'GB']).toContain(job.client.countryCode);
			expect(job.client.paymentMethodVerified).toBe(true);
		}
	});

	it("reads a From Date picked without a zone in the workflow's time zone", async () => {
		const { credentials } = await service.account('pro');
		const visible = service.server.admin.visibleJobs();
		const from = visible[9].createdAt; // the 10th newest job: 10 jobs are at or after it
		const kathmanduWall = new Date(Date.parse(from) + (5 * 60 + 45) * 60_000).toISOString().slice(0, 23);
		const expected = visible.filter((job) => job.createdAt >= from).length;
		const params = search({ limit: 100, basicFilters: { fromDate: kathmanduWall } });

		const inKathmandu = await runJobSearch(params, { credentials, timezone: 'Asia/Kathmandu' });
		expect(inKathmandu.error).toBeUndefined();
		expect(inKathmandu.output).toHaveLength(expected);

		const inUtc = await runJobSearch(params, { credentials, timezone: 'UTC' });
		expect(inUtc.output.length).toBeLessThan(expected);
	});

	it('outputs one item with the whole response and usage when asked', async () => {
		const { credentials } = await service.account('pro');
		const { output } = await runJobSearch(search({ limit: 3, options: { output: 'wholeResponse', includeUsage: true } }), {
			credentials,
		});
		expect(output).toHaveLength(1);
		expect(output[0].json.jobs).toHaveLength(3);
		expect(output[0].json.total).toBeGreaterThanOrEqual(3);
		expect(output[0].json.usage).toEqual(
			expect.objectContaining({ consumedMicrocents: 3 * 579_000, consumedUsd: 0.01737, remainingMicrocents: expect.any(Number) }),
		);
		expect(output[0].pairedItem).toEqual({ item: 0 });
	});

	it('gives every simplified job the same ten flat keys, null where the job has none, and the budget as one string', async () => {
		const { credentials } = await service.account('pro');
		const { output } = await runJobSearch(search({ limit: 60 }), { credentials });
		const keys = Object.keys(output[0].json);
		expect(keys).toEqual(['uid', 'title', 'url', 'createdAt', 'budget', 'description', 'skills', 'clientCountry', 'clientPaymentVerified', 'clientTotalSpent']);
		for (const { json } of output) {
			expect(Object.keys(json)).toEqual(keys);
			for (const value of Object.values(json)) if (value !== null && !Array.isArray(value)) expect(typeof value).not.toBe('object');
		}
		const budgets = output.map(({ json }) => json.budget).filter((budget) => budget !== null);
		expect(budgets.some((budget) => String(budget).endsWith(' fixed'))).toBe(true);
		expect(budgets.some((budget) => String(budget).endsWith('/h'))).toBe(true);
	});

	it('puts the usage of a search on its first job only, so a sum over the items counts the call once', async () => {
		const { credentials } = await service.account('pro');
		const { output } = await runJobSearch(search({ limit: 4, options: { includeUsage: true } }), { credentials, input: [{}, {}] });
		expect(output).toHaveLength(8);
		const withUsage = output.filter(({ json }) => json.usage !== undefined);
		expect(withUsage.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output[0].json.usage).toBe(withUsage[0].json.usage);
		expect(output[4].json.usage).toBe(withUsage[1].json.usage);
		const summed = withUsage.reduce((sum, { json }) => sum + Number((json.usage as { consumedMicrocents: number }).consumedMicrocents), 0);
		expect(summed).toBe(8 * 579_000);
	});

	it('does not narrow the search by filters added and left empty', async () => {
		const { credentials } = await service.account('pro');
		const plain = await runJobSearch(search({ limit: 100 }), { credentials });
		const added = await runJobSearch(
			search({
				limit: 100,
				budgetFilters: { budgetHourlyRateMin: '', budgetHourlyRateMax: '', budgetFixedPriceMax: '', budgetConnectsPriceMax: '' },
				clientFilters: { budgetMinClientHireRate: '', clientMinFeedbackScore: '', clientTotalSpentMin: '' },
			}),
			{ credentials },
		);
		expect(added.error).toBeUndefined();
		expect(added.output.map((i) => i.json.uid)).toEqual(plain.output.map((i) => i.json.uid));
	});

	it('sends the Search Period the field stores in hours as the service period', async () => {
		const { credentials } = await service.account('enterprise');
		const uids = async (parameters: Record<string, unknown>) =>
			(await runJobSearch(search({ limit: 1000, ...parameters, options: { maxCreditUsd: 0, ...(parameters.options as object) } }), { credentials })).output.map((i) => i.json.uid);
		const lastHour = await uids({ basicFilters: { searchPeriod: '1' } });
		const lastWeek = await uids({ basicFilters: { searchPeriod: '168' } });
		expect(lastWeek).toEqual(await uids({ options: { additionalFilters: '{"searchPeriod": "7d"}' } }));
		expect(lastHour).toEqual(await uids({ options: { additionalFilters: '{"searchPeriod": "1h"}' } }));
		expect(lastHour.length).toBeLessThan(lastWeek.length);
	});

	it('rejects a bad filter before sending anything, naming the field and the item', async () => {
		const { id, credentials } = await service.account('pro');
		const { error, output } = await runJobSearch(search({ clientFilters: { clientIncludeLocations: 'USA' } }), {
			credentials,
			input: [{}, {}],
		});
		expect(output).toEqual([]);
		expect(error?.message).toMatch(/Client Countries|client\.includeLocations/);
		expect(error?.message).toContain('[item 0]');
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('rejects Additional Filters that are not a JSON object before sending anything', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ options: { additionalFilters: '{"searchPeriod": ' } }), { credentials });
		expect(error?.message).toMatch(/Additional Filters \(JSON\) is not valid JSON.*\[item 0\]/);
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('asks for the service maximum of 10,000 rows with Return All, with no hint when that is all of them', async () => {
		const { credentials } = await service.account('enterprise');
		const run = await runJobSearch(search({ returnAll: true, options: { maxCreditUsd: 0 } }), { credentials });
		expect(run.output).toHaveLength(300);
		expect(hintsOf(run)).toEqual([]);
	});

	it('returns all 10,050 matches with Return All, past the service maximum of one call, and no hint', async () => {
		// A stopped clock: the oldest seeded job is under a minute inside the 30 days.
		const big = await startTestService({ jobs: 10_050, clock: createManualClock(Date.now()) });
		try {
			const { credentials } = await big.account('enterprise');
			const run = await runJobSearch(search({ returnAll: true, basicFilters: { searchPeriod: '720' }, options: { output: 'wholeResponse', maxCreditUsd: 0 } }), { credentials });
			expect(run.error).toBeUndefined();
			expect(run.output[0].json.total).toBe(10_050);
			expect(new Set((run.output[0].json.jobs as Array<{ uid: string }>).map((job) => job.uid)).size).toBe(10_050);
			expect(hintsOf(run)).toEqual([]);
		} finally {
			await big.server.close();
		}
	});
});

describe('Return All where one millisecond holds more jobs than one call returns', () => {
	it('reads 10,000 of them, goes on past that millisecond, and says so in a hint', async () => {
		const now = Date.now();
		const crowded = await startTestService({ jobs: 0, clock: createManualClock(now) });
		try {
			const tieAt = new Date(now - 60_000).toISOString();
			crowded.server.admin.addJobs([
				...Array.from({ length: 10_001 }, () => ({ createdAt: tieAt })),
				...[1, 2, 3].map((minutes) => ({ createdAt: new Date(now - 60_000 - minutes * 60_000).toISOString() })),
			]);
			const { credentials } = await crowded.account('enterprise');
			const run = await runJobSearch(search({ returnAll: true, basicFilters: { searchPeriod: '1' }, options: { maxCreditUsd: 0 } }), { credentials });
			expect(run.error).toBeUndefined();
			expect(run.output).toHaveLength(10_003);
			expect(run.output.slice(-3).map((item) => item.json.createdAt)).not.toContain(tieAt);
			expect(hintsOf(run)).toEqual([
				expect.objectContaining({
					message: `10,000 or more matching jobs share createdAt ${tieAt}: one request returns at most 10,000, so any beyond them were skipped [item 0]`,
				}),
			]);
		} finally {
			await crowded.server.close();
		}
	});
});

describe('Get Job', () => {
	it('returns the simplified job for a uid from the search', async () => {
		const { credentials } = await service.account('free');
		const [job] = service.server.admin.visibleJobs();
		const { output, error } = await runJobSearch(getJob(job.uid), { credentials });
		expect(error).toBeUndefined();
		expect(output).toEqual([
			{ json: expect.objectContaining({ uid: job.uid, title: job.title, applicationCost: job.applicationCost }), pairedItem: { item: 0 } },
		]);
	});

	it('keeps the full job description when Simplify is on', async () => {
		const { credentials } = await service.account('free');
		const [job] = service.server.admin.visibleJobs();
		const { output } = await runJobSearch(getJob(job.uid), { credentials });
		expect(job.description.length).toBeGreaterThan(0);
		expect(output[0].json.description).toBe(job.description);
		expect(typeof output[0].json.client).toBe('string');
	});

	it('adds, when simplified, what a search row lacks and a person reads before applying: questions, duration and workload in words, connects', async () => {
		const { credentials } = await service.account('free');
		const job = service.server.admin.visibleJobs().find((j) => j.duration === 'UP_TO_THREE_MONTHS' && j.workload === 'MORE_THAN_30_HOURS')!;
		const row = (await runJobSearch(search({ limit: 1 }), { credentials })).output[0].json;
		const { output } = await runJobSearch(getJob(job.uid), { credentials });
		const details = output[0].json;
		const added = Object.keys(details).filter((key) => !(key in row));
		expect(added.sort()).toEqual(['applicationCost', 'client', 'duration', 'questions']);
		expect(details.questions).toEqual(job.questions);
		expect(details.applicationCost).toBe(job.applicationCost);
		expect(details.duration).toBe('1 to 3 months, more than 30 hours a week');
		expect(details.description).toBe(job.description);
	});

	it('carries, when simplified, the client facts a search row has, in one line', async () => {
		const { credentials } = await service.account('free');
		const row = (await runJobSearch(search({ limit: 1 }), { credentials })).output[0].json;
		const details = (await runJobSearch(getJob(row.uid as string), { credentials })).output[0].json;
		const spent = `$${(row.clientTotalSpent as number).toLocaleString('en-US')} spent`;
		expect(details.client).toBe(`${row.clientCountry as string}, payment ${row.clientPaymentVerified ? 'verified' : 'not verified'}, ${spent}`);
	});

	it('adds the client history on a plan with the addon', async () => {
		const { credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const { output } = await runJobSearch(getJob(job.uid, { options: { includeClientHistory: true } }), { credentials });
		expect(Array.isArray(output[0].json.clientHistory)).toBe(true);
	});

	it('accepts a job link in place of the uid', async () => {
		const { credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const { output } = await runJobSearch(getJob(job.externalLink), { credentials });
		expect(output[0].json.uid).toBe(job.uid);
	});

	it('rejects a Job UID that is not digits before sending, naming the item', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(getJob('12ab'), { credentials });
		expect(error?.message).toMatch(/Job UID must be a string of digits.*"12ab".*\[item 0\]/);
		expect(service.server.admin.callLog(id)).toEqual([]);
	});
});

describe('Client operations', () => {
	it('gets client activity and history on a Pro plan', async () => {
		const { credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const activity = await runJobSearch(clientOp('getActivity', job.uid), { credentials });
		const history = await runJobSearch(clientOp('getHistory', job.uid, { options: { includeUsage: true } }), { credentials });
		expect(activity.error).toBeUndefined();
		expect(Object.keys(activity.output[0].json).length).toBeGreaterThan(1);
		expect(history.output[0].json).toEqual(
			expect.objectContaining({ clientHistory: expect.any(Array), usage: expect.objectContaining({ consumedMicrocents: 540_000 }) }),
		);
	});
});

describe('User-Agent', () => {
	it('names the package version that package.json declares', () => {
		const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { name: string; version: string };
		expect(PACKAGE_VERSION).toBe(pkg.version);
		expect(USER_AGENT).toBe(`${pkg.name}/${pkg.version}`);
	});
});
