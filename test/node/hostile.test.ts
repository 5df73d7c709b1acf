import { recordingSleep, takeWaits } from '../support/sleeps';

jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import { BACKOFF_BASE_MS, DEFAULT_MAX_RETRIES, RETRY_AFTER_CUSHION_MS } from '../../nodes/JobSearch/transport/tunables';
import { clientOp, getJob, runJobSearch, search } from './helpers';
import { useTestService } from '../support/service';
import { answer, startScriptedHost, type ScriptedHost, type Script } from '../support/hosts';

const KEY = 'gm_hostileHostTestKey';
const detailsOf = (error: unknown) => (error as { context?: { jobSearch?: Record<string, unknown> } })?.context?.jobSearch;
const failureOf = (error: unknown) => (error as { failure?: unknown })?.failure;
const envelope = { data: { jobs: [], total: 0 }, usage: { consumedMicrocents: 0, remainingMicrocents: 100 } };

const service = useTestService();

let host: ScriptedHost | undefined;
beforeEach(() => takeWaits());
afterEach(async () => {
	await host?.close();
	host = undefined;
});

async function hostWith(script: Script): Promise<{ apiKey: string; baseUrl: string }> {
	host = await startScriptedHost(script);
	return { apiKey: KEY, baseUrl: host.url };
}

describe('waits and timeouts', () => {
	it('waits exactly what a 429 asks (plus the cushion), not more, and then succeeds', async () => {
		const credentials = await hostWith((_req, res, i) =>
			i < 2 ? answer(res, 429, { error_code: 'rate_limited', retryAfterMs: 1234 + i }, { 'Retry-After': '2' }) : answer(res, 200, envelope),
		);
		const { error } = await runJobSearch(search(), { credentials });
		expect(error).toBeUndefined();
		expect(takeWaits()).toEqual([1234 + RETRY_AFTER_CUSHION_MS, 1235 + RETRY_AFTER_CUSHION_MS]);
	});

	it('waits the Retry-After seconds of a 429 without retryAfterMs', async () => {
		const credentials = await hostWith((_req, res, i) =>
			i === 0 ? answer(res, 429, { error_code: 'rate_limited' }, { 'Retry-After': '3' }) : answer(res, 200, envelope),
		);
		await runJobSearch(search(), { credentials });
		expect(takeWaits()).toEqual([3000 + RETRY_AFTER_CUSHION_MS]);
	});

	it.each([
		['', false],
		[' in a context whose cancel signal is undefined', true],
	])('gives up on a host that trickles its answer once the Timeout has passed, and does not retry a timeout%s', async (_where, withoutCancelSignal) => {
		const credentials = await hostWith((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.write('{"data":');
			const drip = setInterval(() => res.write(' '), 20);
			res.on('close', () => clearInterval(drip));
		});
		const { error } = await runJobSearch(search({ options: { timeoutSeconds: 0.4, maxRetries: 3 } }), { credentials, withoutCancelSignal });
		expect(error?.message).toBe('The service did not answer in time [item 0]');
		expect(detailsOf(error)).toEqual(expect.objectContaining({ error_code: 'network_error', httpCode: null }));
		expect(host!.requests()).toHaveLength(1);
	});

	it('retries with the default bounds when the retry options evaluate to NaN', async () => {
		// A bound of its own, so that an unbounded retry loop ends (in a success the test refuses).
		const credentials = await hostWith((_req, res, i) => (i < 20 ? answer(res, 503, 'Service Unavailable') : answer(res, 200, envelope)));
		const { error } = await runJobSearch(search({ options: { maxRetries: '={{ 0/0 }}', maxRetryWaitSeconds: '={{ 0/0 }}' } }), { credentials });
		expect(error?.message).toBe(`The service answered HTTP 503: Service Unavailable (still failing after ${DEFAULT_MAX_RETRIES} retries) [item 0]`);
		expect(host!.requests()).toHaveLength(DEFAULT_MAX_RETRIES + 1);
		const waits = takeWaits();
		expect(waits).toHaveLength(DEFAULT_MAX_RETRIES);
		expect(waits[0]).toBeGreaterThanOrEqual(BACKOFF_BASE_MS / 2);
	});
});

describe('error texts at the edges', () => {
	it.each([502, 503, 504])('retries a %i and then says it was retried, quoting the words of its page', async (status) => {
		const page = '<html><head><style>h1 { color: red }</style></head><body><h1>Bad   Gateway</h1></body></html>';
		const credentials = await hostWith((_req, res) => answer(res, status, page));
		const { error } = await runJobSearch(search({ options: { maxRetries: 1 } }), { credentials });
		expect(host!.requests()).toHaveLength(2);
		expect(error?.message).toBe(`The service answered HTTP ${status}: Bad Gateway (still failing after 1 retry) [item 0]`);
		expect(error?.description).toContain('it was retried once with backoff');
		expect(error?.description).not.toContain('not retried');
		expect(failureOf(error)).toEqual({ cause: 'temporarily-unavailable' });
	});

	it('does not retry a 501 and says so', async () => {
		const credentials = await hostWith((_req, res) => answer(res, 501, { error: 'Not Implemented' }));
		const { error } = await runJobSearch(search({ options: { maxRetries: 3 } }), { credentials });
		expect(host!.requests()).toHaveLength(1);
		expect(error?.description).toBe('The node does not know this answer; it was not retried.');
	});

	it('calls a 403 without error_code a refusal by a proxy or firewall, not a missing premium addon, even with Skip Item', async () => {
		const credentials = await hostWith((_req, res) => answer(res, 403, '<html>Access denied by WAF</html>'));
		const { error, output } = await runJobSearch(clientOp('getActivity', '123', { options: { onPremiumNotIncluded: 'skip', maxRetries: 3 } }), {
			credentials,
		});
		expect(output).toEqual([]);
		expect(error?.message).toMatch(/^The host refused the request \(HTTP 403\)/);
		expect(error?.message).not.toContain('premium');
		expect(error?.description).toContain('firewall');
		expect(detailsOf(error)).toEqual(expect.objectContaining({ error_code: 'http_403', httpCode: 403 }));
		expect(host!.requests()).toHaveLength(1);
	});

	it('words a 402 without a body without empty text or $0 amounts, and keeps its quota-exhausted cause', async () => {
		const credentials = await hostWith((_req, res) => {
			res.writeHead(402);
			res.end();
		});
		const { error } = await runJobSearch(search(), { credentials });
		expect(error?.message).toBe('Out of credit: the monthly pool and prepaid packs are empty [item 0]');
		expect(error?.description).not.toMatch(/Needed|Available/);
		expect(failureOf(error)).toEqual({ cause: 'quota-exhausted' });
		expect(detailsOf(error)).toEqual(expect.objectContaining({ error_code: 'http_402', httpCode: 402 }));
	});

	it('states the 10 MiB cap before sending an oversized request, and sends nothing', async () => {
		const credentials = await hostWith((_req, res) => answer(res, 200, envelope));
		// An unknown key: the schema's own bounds would refuse a keyword that long first.
		const huge = JSON.stringify({ padding: 'x'.repeat(10.5 * 1024 * 1024) });
		const { error } = await runJobSearch(search({ options: { additionalFilters: huge, maxRetries: 3 } }), { credentials });
		expect(error?.message).toBe('The request is 10.5 MiB, more than the service accepts (10 MiB per call) [item 0]');
		expect(detailsOf(error)?.error_code).toBe('payload_too_large');
		expect(host!.requests()).toEqual([]);
	});
});

describe('On Premium Not Included', () => {
	it.each(['skip', 'passThrough', 'error'] as const)(
		'sends one request for the whole execution once the plan refuses the addon (%s)',
		async (choice) => {
			const { id, credentials } = await service.account('free');
			const [a, b, c] = service.server.admin.visibleJobs();
			const run = await runJobSearch(clientOp('getHistory', '={{ $json.uid }}', { options: { onPremiumNotIncluded: choice } }), {
				credentials,
				input: [{ uid: a.uid }, { uid: b.uid }, { uid: c.uid }],
				continueOnFail: true,
			});
			expect(service.server.admin.callLog(id).map((call) => call.status)).toEqual([403]);
			const expected = { skip: 0, passThrough: 3, error: 3 }[choice];
			expect(run.output).toHaveLength(expected);
			if (choice === 'error') {
				expect(run.output.map((i) => i.json.error_code)).toEqual(['addon_forbidden', 'addon_forbidden', 'addon_forbidden']);
				expect(run.output.map((i) => i.json.error)).toEqual([0, 1, 2].map((n) => expect.stringMatching(new RegExp(`\\[item ${n}\\]$`))));
			}
		},
	);

	it('still sends Get Job without client history after Get Job with it was refused', async () => {
		const { id, credentials } = await service.account('free');
		const [a, b] = service.server.admin.visibleJobs();
		const run = await runJobSearch(
			getJob('={{ $json.uid }}', { options: { includeClientHistory: '={{ $json.history }}', onPremiumNotIncluded: 'skip' } }),
			{ credentials, input: [{ uid: a.uid, history: true }, { uid: b.uid, history: false }] },
		);
		expect(service.server.admin.callLog(id).map((call) => call.status)).toEqual([403, 200]);
		expect(run.output.map((i) => i.json.uid)).toEqual([b.uid]);
	});

	it.each(['skip', 'passThrough'] as const)('does not swallow a 402 with %s', async (choice) => {
		const { credentials } = await service.account('pro', { poolMicrocents: 0, packMicrocents: 0 });
		const [job] = service.server.admin.visibleJobs();
		const { error } = await runJobSearch(clientOp('getActivity', job.uid, { options: { onPremiumNotIncluded: choice } }), { credentials });
		expect(detailsOf(error)?.error_code).toBe('insufficient_credits');
		expect(failureOf(error)).toEqual({ cause: 'quota-exhausted' });
	});
});

describe('input that would be sent wrong', () => {
	it.each([
		['an object value', '{"__proto__": {"searchPeriod": "24h"}, "limit": 2}'],
		['a text value', '{"__proto__": "x"}'],
		['a nested key', '{"client.includeLocations": [{"__proto__": {}, "type": "COUNTRY", "value": "US"}]}'],
	])('refuses a "__proto__" key in Additional Filters with %s before sending anything', async (_name, additionalFilters) => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ options: { additionalFilters } }), { credentials, input: [{}, {}] });
		expect(error?.message).toBe('Additional Filters (JSON) has a key "__proto__", which is no filter [item 0]');
		expect(detailsOf(error)?.error_code).toBe('invalid_input');
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('refuses an object mapped into a keyword field by the field\'s label, showing the object, instead of sending "[object Object]"', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ keywordFilters: { includeKeywordsKeywords: '={{ $json.skill }}' } }), {
			credentials,
			input: [{ skill: { name: 'python' } }],
		});
		expect(error?.message).toBe(
			'Include Keywords (includeKeywords.keywords) got {"name":"python"}, which is not text; map a text inside it instead of the whole object, e.g. {{ $json.skill.name }} rather than {{ $json.skill }} [item 0]',
		);
		expect(detailsOf(error)?.error_code).toBe('invalid_input');
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('refuses "[object Object]" that an expression wrote into a keyword field, by the field\'s label', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ keywordFilters: { includeKeywordsKeywords: '=python, {{ $json.skill }}' } }), {
			credentials,
			input: [{ skill: { name: 'python' } }],
		});
		expect(error?.message).toMatch(/^Include Keywords \(includeKeywords.keywords\) got "\[object Object\]": .* map a text inside it .* \[item 0\]$/);
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('sends a lower-case country code typed into a country field in upper case, and the service accepts it', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ clientFilters: { clientIncludeLocations: 'gb' } }), { credentials });
		expect(error).toBeUndefined();
		expect(service.server.admin.callLog(id).map((c) => c.status)).toEqual([200]);
	});

	it('names a lower-case country code in Additional Filters (JSON) before any request, with the code to write', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ options: { additionalFilters: '{"client.includeLocations": [{"type": "COUNTRY", "value": "gb"}]}' } }), { credentials });
		expect(error?.message).toMatch(/client\.includeLocations.*"gb".*write it as "GB"/);
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('refuses country names typed into a country field, as typed, with the codes to write instead', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ clientFilters: { clientIncludeLocations: 'us, Germany, France' } }), { credentials, input: [{}, {}] });
		expect(error?.message).toBe(
			'Client Countries (client.includeLocations) got "Germany", "France", which are not two-letter ISO 3166 country codes; write it as "US, DE, FR" [item 0]',
		);
		expect(detailsOf(error)?.error_code).toBe('invalid_input');
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('sends a country code typed in lower case as the code', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ clientFilters: { clientIncludeLocations: 'us, gb' } }), { credentials });
		expect(error).toBeUndefined();
		expect(service.server.admin.callLog(id).map((c) => c.status)).toEqual([200]);
	});
});
