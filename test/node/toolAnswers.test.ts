import { recordingSleep, takeWaits, waitsMove } from '../support/sleeps';

// A 429's waits are recorded and move the server's clock: nothing here waits in real time.
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import type { IDataObject } from 'n8n-workflow';

import { createManualClock } from '../../server';
import { DEFAULT_MAX_RETRIES, RETRY_AFTER_CUSHION_MS } from '../../nodes/JobSearch/transport/tunables';
import { clientOp, getJob, runJobSearch, search } from './helpers';
import { useTestService } from '../support/service';
import { answer, startScriptedHost } from '../support/hosts';
import { callAsTool, fromAi } from './toolHarness';

// Run as an AI Agent's tool, the node answers every refusal as text the model reads and can act
// on (the argument to change, how, and what was spent) instead of failing the agent's execution.

const clock = createManualClock(Date.parse('2026-11-20T12:00:00.000Z'));
waitsMove(clock);
const service = useTestService({ clock, faults: true });
beforeEach(() => takeWaits());

/** The one item a refused call answers, and the requests the service saw for it. */
async function refusal(parameters: IDataObject, args: IDataObject, plan: 'free' | 'pro' = 'pro', balance?: { poolMicrocents: number; packMicrocents: number }) {
	const { id, credentials } = await service.account(plan, balance);
	const run = await callAsTool(parameters as never, args, credentials);
	return { answer: run.answer, result: run.result!, statuses: service.server.admin.callLog(id).map((c) => c.status) };
}

const countries = { clientFilters: { clientIncludeLocations: fromAi('countries', 'string') } };

describe('a refused call, as the model reads it', () => {
	it('answers a country name with the code to write instead, naming the argument, and sends nothing', async () => {
		const { answer, statuses } = await refusal(search({ limit: fromAi('limit', 'number'), ...countries }), { limit: 5, countries: 'United Kingdom' });
		expect(JSON.parse(answer)).toEqual([
			{
				error:
					'The argument "countries" got "United Kingdom", which is not a two-letter ISO 3166 country code; write it as "GB". Change "countries" as said and call again. Nothing was sent, so nothing was charged.',
				argument: 'countries',
				charged: false,
			},
		]);
		expect(statuses).toEqual([]);
	});

	it('answers a minimum above its maximum naming both arguments and saying to swap them', async () => {
		const rates = { budgetFilters: { budgetHourlyRateMin: fromAi('minRate', 'number'), budgetHourlyRateMax: fromAi('maxRate', 'number') } };
		const { result, statuses } = await refusal(search(rates), { minRate: 80, maxRate: 40 });
		expect(result).toEqual({
			error: expect.stringMatching(/^The argument "minRate" is 80, more than the argument "maxRate", 40; .*or swap them.* Change "minRate" and "maxRate" as said and call again\. Nothing was sent, so nothing was charged\.$/),
			argument: 'minRate, maxRate',
			charged: false,
		});
		expect(statuses).toEqual([]);
	});

	it('says when the workflow, not the model, set the value at fault: no argument changes it, so tell the user', async () => {
		const { result, statuses } = await refusal(search({ clientFilters: { clientIncludeLocations: 'United Kingdom' } }), {});
		expect(result.argument).toBeNull();
		expect(result.error).toContain('write it as "GB". The workflow sets Client Countries itself, so no argument of this tool changes it: tell the user');
		expect(result.error).not.toMatch(/\[item \d+\]|Fix the field in the node/);
		expect(statuses).toEqual([]);
	});

	it('answers "limit" put into Additional Filters with the argument to use instead, whatever Max Jobs per Tool Call says', async () => {
		const { result, statuses } = await refusal(
			search({ limit: fromAi('limit', 'number'), options: { additionalFilters: fromAi('filters', 'string') } }),
			{ limit: 5, filters: '{"limit": 500}' },
		);
		expect(result).toEqual({
			error: 'The argument "filters" sets "limit", which the node sets itself. Remove it and use the argument "limit" instead. Change "filters" and "limit" as said and call again. Nothing was sent, so nothing was charged.',
			argument: 'filters, limit',
			charged: false,
		});
		expect(statuses).toEqual([]);
	});

	it('answers a key the service does not know (its 400) naming the argument that carried it, and that nothing was charged', async () => {
		const { result, statuses } = await refusal(search({ options: { additionalFilters: fromAi('filters', 'string') } }), { filters: '{"client.rating": 4}' });
		expect(result).toEqual({
			error: expect.stringMatching(/^The service rejected the input: Unknown field "client\.rating".*\(the argument "filters"\)\. Change "filters" as said and call again\. Nothing was charged\.$/),
			argument: 'filters',
			charged: false,
		});
		expect(statuses).toEqual([400]);
	});

	it('answers a uid the service does not know (its 404) with where to find one', async () => {
		const { result, statuses } = await refusal(getJob(fromAi('jobUid', 'string')), { jobUid: '1234567890123456789' });
		expect(result).toEqual({
			error:
				'Not found: No job with uid 1234567890123456789 (the argument "jobUid"). Call again with "jobUid" set to the uid of a job from a Search Jobs result (a string of digits), or answer without this job. Nothing was charged.',
			argument: 'jobUid',
			charged: false,
		});
		expect(statuses).toEqual([404]);
	});

	it('answers a uid that is no uid before sending it', async () => {
		const { result, statuses } = await refusal(getJob(fromAi('jobUid', 'string')), { jobUid: 'the React job' });
		expect(result.error).toMatch(/^The argument "jobUid" .*Change "jobUid" as said and call again\. Nothing was sent, so nothing was charged\.$/);
		expect(statuses).toEqual([]);
	});

	it("answers a call past the workflow's credit cap with the argument that asks for fewer jobs, sending nothing", async () => {
		const { result, statuses } = await refusal(search({ limit: fromAi('limit', 'number'), options: { maxCreditUsd: 0.05 } }), { limit: 20 });
		expect(result).toEqual({
			// The cap's own sentence comes first, as the credit cap words it.
			error: expect.stringMatching(/\. The workflow caps what one run may spend: ask for fewer jobs with a smaller "limit", or answer with what you have\. Nothing was sent, so nothing was charged\.$/),
			argument: 'limit',
			charged: false,
		});
		expect(statuses).toEqual([]);
	});

	it('answers out of credit (its 402): no call can succeed until the user adds credit, and nothing was charged', async () => {
		const { result, statuses } = await refusal(search({ limit: fromAi('limit', 'number') }), { limit: 5 }, 'pro', { poolMicrocents: 0, packMicrocents: 0 });
		expect(result).toEqual({
			error: expect.stringMatching(/^Out of credit: .*No call of this tool can succeed until the user adds credit \(https?:\/\/\S+\): do not call it again, tell the user\. Nothing was charged\.$/),
			argument: null,
			charged: false,
		});
		expect(statuses).toEqual([402]);
	});

	it('answers a plan without the premium addon (its 403), even where the node is set to skip such an item', async () => {
		const [job] = service.server.admin.visibleJobs();
		const { result, statuses } = await refusal(clientOp('getActivity', fromAi('jobUid', 'string'), { options: { onPremiumNotIncluded: 'skip' } }), { jobUid: job.uid }, 'free');
		expect(result).toEqual({
			error: 'Get Client Activity needs the premium addon, which your plan does not include. Do not call it again in this conversation; answer without it and tell the user if it matters. Nothing was charged.',
			argument: null,
			charged: false,
		});
		expect(statuses).toEqual([403]);
	});

	it('answers a rate limit after waiting what the node waits, saying how long the service asked to wait', async () => {
		service.server.admin.injectFault({ kind: '429', tool: 'search_jobs', times: DEFAULT_MAX_RETRIES + 1, retryAfterMs: 2000 });
		const { result, statuses } = await refusal(search({ limit: fromAi('limit', 'number') }), { limit: 5 });
		expect(takeWaits()).toEqual(Array(DEFAULT_MAX_RETRIES).fill(2000 + RETRY_AFTER_CUSHION_MS));
		expect(statuses).toEqual(Array(DEFAULT_MAX_RETRIES + 1).fill(429));
		expect(result).toEqual({
			error: 'The service is limiting how often this API key may call it, and asked to wait 2 s, longer than the tool waits. Call again after that, or answer with what you have. Nothing was charged.',
			argument: null,
			charged: false,
			retryAfterSeconds: 2,
		});
	});

	it("answers a 429 of a proxy that gives no error code as the rate limit it is, after the node's waits", async () => {
		const host = await startScriptedHost((_req, res) => answer(res, 429, 'Too Many Requests', { 'Retry-After': '7' }));
		try {
			const run = await callAsTool(search({ limit: fromAi('limit', 'number') }), { limit: 5 }, { apiKey: 'gm_dGVzdGtleQ', baseUrl: host.url });
			expect(takeWaits()).toEqual(Array(DEFAULT_MAX_RETRIES).fill(7000 + RETRY_AFTER_CUSHION_MS));
			expect(run.result).toEqual(expect.objectContaining({ argument: null, charged: false, retryAfterSeconds: 7 }));
			expect(run.result!.error).toMatch(/^The service is limiting how often this API key may call it, and asked to wait 7 s/);
		} finally {
			await host.close();
		}
	});

	it('leaves the same node in a workflow failing as before, with the field and [item N]', async () => {
		const { credentials } = await service.account('pro');
		const { error, output } = await runJobSearch(search({ clientFilters: { clientIncludeLocations: 'United Kingdom' } }), { credentials });
		expect(output).toEqual([]);
		expect(error?.message).toBe(
			'Client Countries (client.includeLocations) got "United Kingdom", which is not a two-letter ISO 3166 country code; write it as "GB" [item 0]',
		);
	});
});
