import { recordingSleep } from '../support/sleeps';

// Backoffs and 429 waits are recorded, not waited out.
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import { getJob, runJobSearch, clientOp, search, type NodeRun } from './helpers';
import { useTestService } from '../support/service';
import { answer, startOtherHost, startRedirectingFront, startScriptedHost } from '../support/hosts';
import { redact } from '../../nodes/JobSearch/transport';

/** Every console line from here on, instead of printed (restored by jest.restoreAllMocks). */
function captureConsole(): string[] {
	const lines: string[] = [];
	for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
		jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
	}
	return lines;
}

const service = useTestService({ faults: true, rateLimits: { free: { requests: 1, windowMs: 300 } } });

/** Every string reachable from `root`, non-enumerable properties (such as `cause`) included. */
function allStrings(root: unknown): string[] {
	const seen = new Set<unknown>();
	const out: string[] = [];
	const visit = (value: unknown, depth: number) => {
		if (typeof value === 'string') return void out.push(value);
		if (typeof value !== 'object' || value === null || seen.has(value) || depth > 12) return;
		seen.add(value);
		for (const name of Object.getOwnPropertyNames(value)) {
			let child: unknown;
			try {
				child = (value as Record<string, unknown>)[name];
			} catch {
				continue;
			}
			visit(child, depth + 1);
		}
	};
	visit(root, 0);
	return out;
}

function expectNoKey(run: NodeRun, key: string) {
	const everything = [...allStrings(run.run), ...allStrings(run.error), JSON.stringify(run.run)];
	expect(everything.filter((s) => s.includes(key))).toEqual([]);
}

describe('the API key', () => {
	it('would be found by the scan even in a non-enumerable cause', () => {
		const error = Object.defineProperty(new Error('x'), 'cause', {
			value: { config: { headers: { Authorization: 'Bearer gm_planted' } } },
			enumerable: false,
		});
		expect(allStrings(error).some((s) => s.includes('gm_planted'))).toBe(true);
	});

	let logged: string[];
	beforeEach(() => (logged = captureConsole()));
	afterEach(() => jest.restoreAllMocks());

	it('appears in no output item, error or log line, whatever fails', async () => {
		const pro = await service.account('pro');
		const free = await service.account('free');
		const broke = await service.account('pro', { poolMicrocents: 0, packMicrocents: 0 });
		const [job] = service.server.admin.visibleJobs();
		const scenarios: Array<[string, () => Promise<NodeRun>]> = [
			[pro.key, () => runJobSearch(search({ options: { includeUsage: true } }), { credentials: pro.credentials })],
			['gm_wrongKeyThatMustNotLeak', () => runJobSearch(search(), { credentials: { ...pro.credentials, apiKey: 'gm_wrongKeyThatMustNotLeak' } })],
			[broke.key, () => runJobSearch(search(), { credentials: broke.credentials })],
			[free.key, () => runJobSearch(clientOp('getActivity', job.uid), { credentials: free.credentials })],
			[free.key, () => runJobSearch(search({ options: { maxRetryWaitSeconds: 0 } }), { credentials: free.credentials, input: [{}, {}] })],
			[pro.key, () => runJobSearch(getJob('1'), { credentials: pro.credentials })],
			[pro.key, () => runJobSearch(search({ options: { additionalFilters: '{"nope": 1}' } }), { credentials: pro.credentials })],
			[
				pro.key,
				() => {
					service.server.admin.injectFault({ kind: 'drop', times: 2 });
					return runJobSearch(search({ options: { maxRetries: 1 } }), { credentials: pro.credentials });
				},
			],
			[
				pro.key,
				() => {
					service.server.admin.injectFault({ kind: '500', times: 1 });
					return runJobSearch(search({ options: { maxRetries: 0 } }), { credentials: pro.credentials, continueOnFail: true });
				},
			],
			[pro.key, () => runJobSearch(search(), { credentials: { ...pro.credentials, baseUrl: 'http://127.0.0.1:1' } })],
		];
		let failures = 0;
		for (const [key, scenario] of scenarios) {
			const run = await scenario();
			if (run.error || run.output.some((i) => i.json.error_code)) failures++;
			expectNoKey(run, key);
		}
		expect(failures).toBe(scenarios.length - 1);
		expect(logged.filter((line) => scenarios.some(([key]) => line.includes(key)))).toEqual([]);
	});
});

describe('a host that echoes the Authorization header back', () => {
	const key = 'gm_echoedKeyMustNeverComeBack42';
	let logged: string[];
	beforeEach(() => (logged = captureConsole()));
	afterEach(() => jest.restoreAllMocks());

	const usage = { consumedMicrocents: 0, remainingMicrocents: 1 };
	const echoes: Array<[string, (auth: string) => [number, unknown, Record<string, string>?]]> = [
		['a 401 error message', (auth) => [401, { error: `Bad header: ${auth}`, error_code: 'invalid_key' }]],
		['an unknown error_code', (auth) => [418, { error: auth, error_code: auth }]],
		['a 500 HTML page', (auth) => [500, `<html><body><pre>Authorization: ${auth}</pre></body></html>`]],
		['a 403 without error_code', (auth) => [403, `Blocked request with ${auth}`]],
		['a 402 body', (auth) => [402, { error_code: 'insufficient_credits', message: auth, hint: auth, upgradeUrl: `https://x.test/?k=${auth}` }]],
		['a 429 body', (auth) => [429, { error: auth, error_code: 'rate_limited', retryAfterMs: 0 }, { 'Retry-After': '0' }]],
		['a 2xx echo of the request', (auth) => [200, { headers: { Authorization: auth } }]],
		['the jobs of an envelope', (auth) => [200, { data: { jobs: [{ uid: '1', title: auth, [auth]: auth }], total: 1 }, usage }]],
		['a redirect Location', (auth) => [302, '', { Location: `http://127.0.0.1:1/?token=${encodeURIComponent(auth)}` }]],
	];

	it.each(echoes)('keeps the key out of the error, the items, the execution data and the log when it is in %s', async (_name, reply) => {
		const host = await startScriptedHost((req, res) => {
			const [status, body, headers] = reply(req.authorization ?? '');
			answer(res, status, body, { 'X-Echo': req.authorization ?? '', ...headers });
		});
		try {
			const credentials = { apiKey: key, baseUrl: host.url };
			const runs = [
				await runJobSearch(search({ simplify: false, options: { maxRetries: 1, includeUsage: true } }), { credentials }),
				await runJobSearch(search({ simplify: false, options: { maxRetries: 0 } }), { credentials, continueOnFail: true }),
			];
			expect(host.requests()[0].authorization).toBe(`Bearer ${key}`);
			for (const run of runs) expectNoKey(run, key);
			expect(logged.filter((line) => line.includes(key))).toEqual([]);
		} finally {
			await host.close();
		}
	});
});

describe('a Base URL that redirects to another host', () => {
	it('does not carry the API key over to that host', async () => {
		const { credentials } = await service.account('pro');
		const elsewhere = await startOtherHost();
		const front = await startRedirectingFront(elsewhere.url);
		try {
			const { error } = await runJobSearch(search({ options: { maxRetries: 0 } }), { credentials: { ...credentials, baseUrl: front.url } });
			expect(error).toBeDefined();
			expect(front.requests()).toHaveLength(1);
			expect(elsewhere.requests().map((r) => r.authorization)).toEqual([undefined]);
		} finally {
			await front.close();
			await elsewhere.close();
		}
	});
});

describe('cutting the key out of an answer', () => {
	const key = 'gm_cutMeOutOfEverything';

	it('replaces it in strings and keys at any depth, and leaves an answer without it as it is', () => {
		let deep: unknown = { note: `Bearer ${key}` };
		for (let i = 0; i < 2_000; i++) deep = [deep];
		const answer = { data: { jobs: [{ title: key, [key]: 1 }], deep }, usage: { consumedMicrocents: 0 } };
		expect(JSON.stringify(redact(answer, key))).not.toContain(key);
		expect(redact(answer, key).usage).toBe(answer.usage);
		const onlyInAKey = { data: { [`Bearer ${key}`]: true } };
		expect(JSON.stringify(redact(onlyInAKey, key))).not.toContain(key);
		const clean = { data: { jobs: [{ title: 'T' }] } };
		expect(redact(clean, key)).toBe(clean);
	});
});
