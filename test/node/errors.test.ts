import { recordingSleep, takeWaits, waitsMove } from '../support/sleeps';

// Backoffs and 429 waits are recorded and move the server's clock: nothing here waits in real
// time, and the rate-limit window below cannot pass between two requests on a slow machine.
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import { createManualClock } from '../../server';
import { serviceError } from '../../nodes/JobSearch/transport/errors';
import { RETRY_AFTER_CUSHION_MS } from '../../nodes/JobSearch/transport/tunables';
import { clientOp, getJob, runJobSearch, search } from './helpers';
import { useTestService } from '../support/service';
import { answer, startRedirectingFront, startScriptedHost } from '../support/hosts';

const clock = createManualClock(Date.parse('2026-11-20T12:00:00.000Z'));
waitsMove(clock);

const service = useTestService({ clock, faults: true, rateLimits: { free: { requests: 2, windowMs: 300 } } });
beforeEach(() => takeWaits());

const detailsOf = (error: unknown) => (error as { context?: { jobSearch?: Record<string, unknown> } })?.context?.jobSearch;

describe('errors the service answers', () => {
	it('says the key is missing, wrong or revoked on 401, for a wrong and a revoked key', async () => {
		const { key, credentials } = await service.account('pro');
		const wrong = await runJobSearch(search(), { credentials: { ...credentials, apiKey: 'gm_notARealKey' } });
		await service.server.admin.revokeKey(key);
		const revoked = await runJobSearch(search(), { credentials });
		for (const { error } of [wrong, revoked]) {
			expect(error?.message).toBe('The API key is missing, wrong or revoked [item 0]');
			expect((error as { httpCode?: string }).httpCode).toBe('401');
			expect(detailsOf(error)).toEqual(expect.objectContaining({ error_code: 'invalid_key', httpCode: 401 }));
			expect((error as { failure?: unknown }).failure).toEqual({ cause: 'credential-invalid' });
		}
	});

	it('does not retry a 402, marks it quota-exhausted and shows needed and available credit, the hint and the upgrade URL', async () => {
		const { id, credentials } = await service.account('pro', { poolMicrocents: 0, packMicrocents: 0 });
		const { error } = await runJobSearch(search({ limit: 10, options: { maxRetries: 5 } }), { credentials });
		expect(error?.message).toMatch(/^Out of credit/);
		expect(error?.description).toContain('Needed: $0.0579 (5790000 microcents). Available: $0 (0 microcents).');
		expect(error?.description).toMatch(/https?:\/\/\S+/);
		expect(detailsOf(error)?.error_code).toBe('insufficient_credits');
		expect((error as { failure?: unknown }).failure).toEqual({ cause: 'quota-exhausted' });
		expect(service.server.admin.callLog(id).map((c) => c.status)).toEqual([402]);
	});

	it('repeats the service field message on 400 and does not retry it', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ options: { additionalFilters: '{"budget.hourlyRat.min": "5"}', maxRetries: 3 } }), {
			credentials,
		});
		expect(error?.message).toMatch(/^The service rejected the input: .*budget\.hourlyRat\.min/);
		expect(detailsOf(error)?.error_code).toBe('validation_error');
		expect(service.server.admin.callLog(id).map((c) => c.status)).toEqual([400]);
	});

	it('reports a job the service does not know as 404 not_found', async () => {
		const { credentials } = await service.account('pro');
		const { error } = await runJobSearch(getJob('42'), { credentials });
		expect(error?.message).toMatch(/^Not found/);
		expect(detailsOf(error)).toEqual(expect.objectContaining({ error_code: 'not_found', httpCode: 404 }));
	});

	it('follows no redirect: it names the address the Base URL redirects to, sends nothing there and does not retry', async () => {
		const { credentials } = await service.account('pro');
		const front = await startRedirectingFront(service.server.url);
		try {
			const { error } = await runJobSearch(search({ options: { maxRetries: 3 } }), {
				credentials: { ...credentials, baseUrl: front.url },
			});
			expect(error?.message).toBe(`The Base URL redirects (HTTP 301) to ${service.server.url}/v1/search_jobs [item 0]`);
			expect(error?.description).toContain('Base URL');
			expect((error as { httpCode?: string }).httpCode).toBe('301');
			expect(detailsOf(error)).toEqual(expect.objectContaining({ error_code: 'redirected', httpCode: 301 }));
			expect(front.requests()).toHaveLength(1);
		} finally {
			await front.close();
		}
	});

	it('does not follow a redirect to another path of the same host either', async () => {
		const host = await startScriptedHost((req, res) => answer(res, 308, '', { Location: `/elsewhere${req.url}` }));
		try {
			const { error } = await runJobSearch(search(), { credentials: { apiKey: 'gm_sameHostRedirect', baseUrl: host.url } });
			expect(error?.message).toBe('The Base URL redirects (HTTP 308) to /elsewhere/v1/search_jobs [item 0]');
			expect(host.requests().map((r) => r.url)).toEqual(['/v1/search_jobs']);
		} finally {
			await host.close();
		}
	});

	it('takes a 300 (Multiple Choices) for a redirect too, the first of the 3xx', async () => {
		const host = await startScriptedHost((req, res) => answer(res, 300, '', { Location: `/choices${req.url}` }));
		try {
			const { error } = await runJobSearch(search({ options: { maxRetries: 3 } }), { credentials: { apiKey: 'gm_multipleChoices', baseUrl: host.url } });
			expect(error?.message).toBe('The Base URL redirects (HTTP 300) to /choices/v1/search_jobs [item 0]');
			expect(host.requests()).toHaveLength(1);
		} finally {
			await host.close();
		}
	});

	it('points at the Base URL on 405 and does not retry it', async () => {
		const host = await startScriptedHost((_req, res) =>
			answer(res, 405, { error: 'Method not allowed', error_code: 'method_not_allowed' }, { Allow: 'POST' }),
		);
		try {
			const { error } = await runJobSearch(search({ options: { maxRetries: 3 } }), { credentials: { apiKey: 'gm_any405key', baseUrl: host.url } });
			expect(error?.message).toBe('The service refused the HTTP method [item 0]');
			expect(error?.description).toContain('Base URL');
			expect(detailsOf(error)).toEqual(expect.objectContaining({ error_code: 'method_not_allowed', httpCode: 405 }));
			expect(host.requests()).toHaveLength(1);
		} finally {
			await host.close();
		}
	});

	it('names the failing item in the message of a service error and of a dropped connection, and keeps its index', async () => {
		const { credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const notFound = await runJobSearch(getJob('={{ $json.uid }}'), { credentials, input: [{ uid: job.uid }, { uid: '7' }] });
		expect(notFound.error?.message).toMatch(/^Not found: .* \[item 1\]$/);
		expect((notFound.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);

		service.server.admin.injectFault({ kind: 'drop', tool: 'get_job' });
		const dropped = await runJobSearch(getJob(job.uid, { options: { maxRetries: 0 } }), { credentials });
		expect(dropped.error?.message).toBe('Could not reach the service [item 0]');
		expect((dropped.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
	});

	it('states the 10 MiB cap on 413', async () => {
		const { credentials } = await service.account('pro');
		// A key the node's pre-flight leaves to the server, so the oversized body is actually sent (a keyword that long is refused before sending).
		const huge = JSON.stringify({ padding: 'x'.repeat(10.5 * 1024 * 1024) });
		const { error } = await runJobSearch(search({ options: { additionalFilters: huge } }), { credentials });
		expect(error?.message).toContain('10 MiB');
		expect(detailsOf(error)?.error_code).toBe('payload_too_large');
	});
});

describe('premium operations on a plan without the addon', () => {
	const input = [{ keep: 'me' }];

	it('fails by default, naming the addon and the plan that includes it', async () => {
		const { credentials } = await service.account('free');
		const [job] = service.server.admin.visibleJobs();
		const { error } = await runJobSearch(clientOp('getActivity', job.uid), { credentials, input });
		expect(error?.message).toBe('Get Client Activity needs the premium addon, which your plan does not include [item 0]');
		expect(error?.description).toContain('Pro');
		expect(detailsOf(error)?.error_code).toBe('addon_forbidden');
	});

	it('outputs nothing for the item with Skip Item', async () => {
		const { credentials } = await service.account('free');
		const [job] = service.server.admin.visibleJobs();
		const run = await runJobSearch(clientOp('getHistory', job.uid, { options: { onPremiumNotIncluded: 'skip' } }), {
			credentials,
			input,
		});
		expect(run.error).toBeUndefined();
		expect(run.output).toEqual([]);
	});

	it('outputs the input item with a note with Pass Item Through, also for Get Job with client history', async () => {
		const { credentials } = await service.account('free');
		const [job] = service.server.admin.visibleJobs();
		const run = await runJobSearch(
			getJob(job.uid, { options: { includeClientHistory: true, onPremiumNotIncluded: 'passThrough' } }),
			{ credentials, input },
		);
		expect(run.output).toEqual([
			{ json: { keep: 'me', jobSearchNote: expect.stringContaining('premium addon') }, pairedItem: { item: 0 } },
		]);
	});
});

describe('retries', () => {
	it('waits as long as a 429 asks and then succeeds', async () => {
		const { id, credentials } = await service.account('free');
		const run = await runJobSearch(search({ limit: 1 }), { credentials, input: [{}, {}, {}] });
		expect(run.error).toBeUndefined();
		expect(run.output).toHaveLength(3);
		expect(service.server.admin.callLog(id).map((c) => c.status)).toEqual([200, 200, 429, 200]);
		// The third request came inside the 300 ms window of the first two: it waited the rest of it.
		expect(takeWaits()).toEqual([300 + RETRY_AFTER_CUSHION_MS]);
	});

	it.each([
		['retryAfterMs: 60000 in the body', { retryAfterMs: 60_000 }, {}],
		['Retry-After: 60 and no retryAfterMs', {}, { 'Retry-After': '60' }],
	] as const)('waits out a 429 that asks for exactly the longest wait allowed (%s), as a per-minute limit does at the start of its window', async (_, extra, headers) => {
		const envelope = { data: { jobs: [], total: 0 }, usage: { consumedMicrocents: 0, remainingMicrocents: 5 } };
		const host = await startScriptedHost((_req, res, index) =>
			index === 0 ? answer(res, 429, { error: 'Too many requests', error_code: 'rate_limited', ...extra }, headers) : answer(res, 200, envelope),
		);
		try {
			const run = await runJobSearch(search({ limit: 1 }), { credentials: { apiKey: 'gm_dGVzdGtleQ', baseUrl: host.url } });
			expect(run.error).toBeUndefined();
			expect(takeWaits()).toEqual([60_000 + RETRY_AFTER_CUSHION_MS]);
		} finally {
			await host.close();
		}
	});

	it('fails saying how long the service asked to wait when that is past Max Retry Wait', async () => {
		const { credentials } = await service.account('free');
		const run = await runJobSearch(search({ limit: 1, options: { maxRetryWaitSeconds: 0.01 } }), {
			credentials,
			input: [{}, {}, {}],
			continueOnFail: true,
		});
		const failed = run.output[2].json;
		expect(failed.error).toMatch(/^Rate limited: the service asked to wait 0\.3 s, longer than this node may wait/);
		expect(failed).toEqual(expect.objectContaining({ error_code: 'rate_limited', httpCode: 429, retryAfterMs: 300 }));
		expect(takeWaits()).toEqual([]);
	});

	it('fails saying the retries are used up when Max Retries is 0', async () => {
		const { credentials } = await service.account('free');
		const before = Date.now();
		const run = await runJobSearch(search({ limit: 1, options: { maxRetries: 0 } }), { credentials, input: [{}, {}, {}] });
		const after = Date.now();
		expect(run.error?.message).toBe('Rate limited: the service asked to wait 0.3 s, and Max Retries (0) is used up [item 2]');
		const { failure } = run.error as { failure?: { cause: string; retryAfterMs: number; resetsAtEpochMs: number } };
		expect(failure).toEqual({ cause: 'rate-limited', retryAfterMs: 300, resetsAtEpochMs: expect.any(Number) });
		expect(failure!.resetsAtEpochMs).toBeGreaterThanOrEqual(before + 300);
		expect(failure!.resetsAtEpochMs).toBeLessThanOrEqual(after + 300);
	});

	it('tells n8n when a rate limit ends, as the wait asked and as the moment it ends, counted from the answer', () => {
		const answeredAtMs = Date.parse('2026-11-20T12:00:00.000Z');
		const node = { id: 'n1', name: 'Job Search', type: 'n8n-nodes-job-search.jobSearch', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
		const limited = serviceError(node, 429, { error: 'Too many requests', error_code: 'rate_limited', retryAfterMs: 1500 }, { tool: 'search_jobs', answeredAtMs });
		expect((limited as { failure?: unknown }).failure).toEqual({ cause: 'rate-limited', retryAfterMs: 1500, resetsAtEpochMs: answeredAtMs + 1500 });
		const header = serviceError(node, 429, { error_code: 'rate_limited' }, { tool: 'search_jobs', retryAfterMs: 60_000, answeredAtMs });
		expect((header as { failure?: unknown }).failure).toEqual({ cause: 'rate-limited', retryAfterMs: 60_000, resetsAtEpochMs: answeredAtMs + 60_000 });
		const unsaid = serviceError(node, 429, { error_code: 'rate_limited' }, { tool: 'search_jobs', answeredAtMs });
		expect((unsaid as { failure?: unknown }).failure).toEqual({ cause: 'rate-limited' });
		const outage = serviceError(node, 500, { error_code: 'runtime_error', retryAfterMs: 1500 }, { tool: 'search_jobs', answeredAtMs });
		expect((outage as { failure?: unknown }).failure).toEqual({ cause: 'temporarily-unavailable' });
	});

	it.each([
		['a 500', '500'],
		['a dropped connection', 'drop'],
	] as const)('retries %s with backoff and then succeeds', async (_name, kind) => {
		const { credentials } = await service.account('pro');
		service.server.admin.injectFault({ kind, tool: 'search_jobs' });
		const retried = await runJobSearch(search({ limit: 2 }), { credentials });
		expect(retried.error).toBeUndefined();
		expect(retried.output).toHaveLength(2);
		expect(takeWaits()).toEqual([expect.any(Number)]);

		service.server.admin.injectFault({ kind, tool: 'search_jobs' });
		const notRetried = await runJobSearch(search({ limit: 2, options: { maxRetries: 0 } }), { credentials });
		expect(detailsOf(notRetried.error)?.error_code).toBe(kind === '500' ? 'runtime_error' : 'network_error');
	});

	it('gives up on a 500 that persists after Max Retries, saying so', async () => {
		const { credentials } = await service.account('pro');
		service.server.admin.injectFault({ kind: '500', tool: 'search_jobs', times: 3 });
		const { error } = await runJobSearch(search({ options: { maxRetries: 2 } }), { credentials });
		expect(error?.message).toBe('The service had an internal fault (still failing after 2 retries) [item 0]');
		expect((error as { failure?: unknown }).failure).toEqual({ cause: 'temporarily-unavailable' });
	});
});

describe('continue on fail', () => {
	it('emits an error item paired with the failing item and goes on with the next', async () => {
		const { credentials } = await service.account('pro');
		const [a, b] = service.server.admin.visibleJobs();
		const run = await runJobSearch(getJob('={{ $json.uid }}'), {
			credentials,
			input: [{ uid: a.uid }, { uid: 'not-a-uid' }, { uid: '7' }, { uid: b.uid }],
			continueOnFail: true,
		});
		expect(run.output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(run.output[0].json.uid).toBe(a.uid);
		expect(run.output[1].json).toEqual(expect.objectContaining({ error_code: 'invalid_input', httpCode: null }));
		expect(run.output[1].json.error).toContain('[item 1]');
		expect(run.output[2].json).toEqual(expect.objectContaining({ error_code: 'not_found', httpCode: 404 }));
		expect(run.output[2].json.error).toMatch(/\[item 2\]$/);
		expect(run.output[3].json.uid).toBe(b.uid);
	});
});

describe('checking input before spending credit', () => {
	it('fails on bad input in a later item before sending the first item, so nothing is charged', async () => {
		const { id, credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const before = service.server.admin.balance(id).totalMicrocents;
		const run = await runJobSearch(getJob('={{ $json.uid }}'), { credentials, input: [{ uid: job.uid }, { uid: 'not-a-uid' }] });
		expect(run.error?.message).toMatch(/^Job UID must be a string of digits.*\[item 1\]$/);
		expect(run.output).toEqual([]);
		expect(service.server.admin.callLog(id)).toEqual([]);
		expect(service.server.admin.balance(id).totalMicrocents).toBe(before);
	});
});
