import { recordingSleep } from '../support/sleeps';

// Backoffs and 429 waits are recorded, not waited out.
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import { getJob, runJobSearch, search } from './helpers';
import { answer, startScriptedHost, type ScriptedHost } from '../support/hosts';

const KEY = 'gm_aBrokenHostNeverSeesThisKey';
const detailsOf = (error: unknown) => (error as { context?: { jobSearch?: Record<string, unknown> } })?.context?.jobSearch;
const failureOf = (error: unknown) => (error as { failure?: unknown })?.failure;

const envelope = { data: { jobs: [], total: 0 }, usage: { consumedMicrocents: 0, remainingMicrocents: 100 } };

let host: ScriptedHost | undefined;
afterEach(async () => {
	await host?.close();
	host = undefined;
});

async function hostAnswering(status: number, body: unknown): Promise<ScriptedHost> {
	host = await startScriptedHost((_req, res) => answer(res, status, body));
	return host;
}

describe('a 2xx that is not the service envelope', () => {
	it.each([
		['an HTML page', '<!DOCTYPE html><html><body>Sign in to the proxy</body></html>', 'an HTML page'],
		['an empty object', {}, 'JSON without a "data" object'],
		['a list', [1, 2], 'a JSON list instead of an object'],
		['data without a jobs list', { data: { total: 3 }, usage: envelope.usage }, 'JSON without a "data.jobs" list'],
		['jobs that are not a list', { data: { jobs: 'none' }, usage: envelope.usage }, 'JSON without a "data.jobs" list'],
		['jobs without a total', { data: { jobs: [] }, usage: envelope.usage }, 'JSON without an integer "data.total"'],
		['a total written as text', { data: { jobs: [], total: '0' }, usage: envelope.usage }, 'JSON without an integer "data.total"'],
		['a total that is not a whole number', { data: { jobs: [], total: 0.5 }, usage: envelope.usage }, 'JSON without an integer "data.total"'],
		[
			'a total smaller than its jobs',
			{ data: { jobs: [{ uid: '1' }, { uid: '2' }], total: 1 }, usage: envelope.usage },
			'a "data.total" of 1, fewer than its 2 jobs',
		],
		['no usage', { data: envelope.data }, 'JSON without a "usage" object'],
		[
			'a consumedMicrocents that is not an integer',
			{ data: envelope.data, usage: { consumedMicrocents: '5', remainingMicrocents: 1 } },
			'JSON without an integer "usage.consumedMicrocents"',
		],
		[
			'no remainingMicrocents',
			{ data: envelope.data, usage: { consumedMicrocents: 5 } },
			'JSON without an integer "usage.remainingMicrocents"',
		],
	])('fails Search Jobs on %s, naming what came back and the Base URL, after retrying it', async (_name, body, problem) => {
		const { url, requests } = await hostAnswering(200, body);
		const { error, output } = await runJobSearch(search({ options: { maxRetries: 1 } }), { credentials: { apiKey: KEY, baseUrl: url } });
		expect(output).toEqual([]);
		expect(error?.message).toBe(`The host answered 200 but not with the service's response: ${problem} (the same after 1 retry) [item 0]`);
		expect(error?.description).toContain(`Base URL in the credential (${url})`);
		expect(detailsOf(error)).toEqual(expect.objectContaining({ error_code: 'invalid_response', httpCode: 200 }));
		expect(failureOf(error)).toEqual({ cause: 'temporarily-unavailable' });
		expect(requests()).toHaveLength(2);
	});

	it('fails Get Job on an empty object instead of outputting {}', async () => {
		const { url } = await hostAnswering(200, {});
		const { error, output } = await runJobSearch(getJob('123', { options: { maxRetries: 0 } }), { credentials: { apiKey: KEY, baseUrl: url } });
		expect(output).toEqual([]);
		expect(error?.message).toBe(`The host answered 200 but not with the service's response: JSON without a "data" object [item 0]`);
	});

	it('takes a well-formed envelope as success', async () => {
		const { url } = await hostAnswering(200, { data: { jobs: [{ uid: '1', title: 'T' }], total: 1 }, usage: envelope.usage });
		const { error, output } = await runJobSearch(search({ simplify: false }), { credentials: { apiKey: KEY, baseUrl: url } });
		expect(error).toBeUndefined();
		expect(output.map((i) => i.json)).toEqual([{ uid: '1', title: 'T' }]);
	});

	it('takes a uid repeated in one answer as one job, its total counting distinct jobs, as a search engine\'s join may answer', async () => {
		const jobs = [{ uid: '1', title: 'T' }, { uid: '1', title: 'T' }, { uid: '2', title: 'U' }];
		const { url } = await hostAnswering(200, { data: { jobs, total: 2 }, usage: envelope.usage });
		const { error } = await runJobSearch(search({ simplify: false }), { credentials: { apiKey: KEY, baseUrl: url } });
		expect(error).toBeUndefined();
	});

	it('takes a total rounded down to the thousand as "at least", though the page holds more jobs, as a search engine reports large counts', async () => {
		const jobs = Array.from({ length: 1_200 }, (_, i) => ({ uid: String(10_000 + i), title: 'T' }));
		const { url } = await hostAnswering(200, { data: { jobs, total: 1_000 }, usage: envelope.usage });
		const { error, output } = await runJobSearch(search({ simplify: false, limit: 1_200, options: { maxCreditUsd: 0 } }), { credentials: { apiKey: KEY, baseUrl: url } });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(1_200);
	});

	it('succeeds when a retry after a bad 2xx gets the envelope', async () => {
		host = await startScriptedHost((_req, res, index) => answer(res, 200, index === 0 ? '<html>busy</html>' : envelope));
		const { error } = await runJobSearch(search(), { credentials: { apiKey: KEY, baseUrl: host.url } });
		expect(error).toBeUndefined();
		expect(host.requests()).toHaveLength(2);
	});
});
