import { startTestServer, type TestServer } from './helpers';

let t: TestServer;
let key: string;

beforeAll(async () => {
	t = await startTestServer({ jobs: 20, faults: true });
	key = t.server.admin.demoKeys.pro;
});

afterAll(() => t.server.close());

describe('fault injection', () => {
	it('answers X-Fault: 500 with runtime_error and charges nothing', async () => {
		const before = t.server.admin.balance('demo-pro').totalMicrocents;
		const res = await t.call('search_jobs', {}, key, { 'x-fault': '500' });
		expect(res.status).toBe(500);
		expect(res.data.error_code).toBe('runtime_error');
		expect(t.server.admin.balance('demo-pro').totalMicrocents).toBe(before);
	});

	it('drops the connection on X-Fault: drop', async () => {
		await expect(t.http.post('/v1/search_jobs', {}, { headers: { authorization: `Bearer ${key}`, 'x-fault': 'drop' } })).rejects.toMatchObject({
			code: expect.stringMatching(/ECONNRESET|socket hang up|ERR_BAD_RESPONSE/),
		});
	});

	it('delays the answer on X-Fault: delay=<ms> and then serves it', async () => {
		// The wait is recorded, not taken: the server asks for it before it answers.
		const waits: number[] = [];
		const slow = await startTestServer({ jobs: 20, faults: true, faultSleep: async (ms) => void waits.push(ms) });
		try {
			const res = await slow.call('search_jobs', { limit: 1 }, slow.server.admin.demoKeys.pro, { 'x-fault': 'delay=150' });
			expect(waits).toEqual([150]);
			expect(res.status).toBe(200);
		} finally {
			await slow.server.close();
		}
	});

	it('fails the next matching requests armed from the admin side, then recovers', async () => {
		t.server.admin.injectFault({ kind: '500', times: 2, tool: 'get_job' });
		const uid = t.server.admin.visibleJobs()[0].uid;
		expect((await t.call('search_jobs', { limit: 1 }, key)).status).toBe(200);
		expect((await t.call('get_job', { jobUid: uid }, key)).status).toBe(500);
		expect((await t.call('get_job', { jobUid: uid }, key)).status).toBe(500);
		expect((await t.call('get_job', { jobUid: uid }, key)).status).toBe(200);
	});

	it('fails MCP tool calls armed for their tool', async () => {
		t.server.admin.injectFault({ kind: '500', tool: 'search_jobs' });
		const res = await t.http.post(
			'/mcp',
			{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_jobs', arguments: {} } },
			{ headers: { authorization: `Bearer ${key}` } },
		);
		expect(res.status).toBe(500);
	});

	it('ignores the header when the server was started without faults', async () => {
		const plain = await startTestServer({ jobs: 5 });
		try {
			const res = await plain.call('search_jobs', { limit: 1 }, plain.server.admin.demoKeys.pro, { 'x-fault': '500' });
			expect(res.status).toBe(200);
			expect(() => plain.server.admin.injectFault({ kind: '500' })).toThrow(/faults: true/);
		} finally {
			await plain.server.close();
		}
	});
});

describe('a share of a key answered 429 (other workflows on the key)', () => {
	let s: TestServer;
	let shared: string;
	let other: string;
	const answers = async (key: string, count: number) => {
		const out = [];
		for (let i = 0; i < count; i++) out.push(await s.call('search_jobs', { limit: 1 }, key));
		return out;
	};
	const statuses = async (key: string, count: number) => (await answers(key, count)).map((res) => res.status);

	beforeEach(async () => {
		s = await startTestServer({ jobs: 5, faults: true, adminToken: 'admin', accounts: [{ id: 'p', plan: 'pro' }], rateLimits: { pro: { requests: 10_000, windowMs: 60_000 } } });
		shared = await s.server.admin.issueKey('p');
		other = await s.server.admin.issueKey('p');
	});
	afterEach(() => s.server.close());

	it('answers about that share of the key’s tool calls with the service’s own 429, at random, and no other key', async () => {
		s.server.admin.injectFault({ kind: '429', share: 0.3, seed: 7, key: shared });
		const seen = await answers(shared, 200);
		const refused = seen.filter((res) => res.status === 429);
		expect(refused.length).toBeGreaterThan(40);
		expect(refused.length).toBeLessThan(80);
		expect(seen.filter((res) => res.status !== 429).every((res) => res.status === 200)).toBe(true);
		for (const res of refused) {
			expect(res.data).toEqual({ error: expect.stringContaining('Rate limit'), error_code: 'rate_limited', retryAfterMs: 20_000 });
			expect(res.headers['retry-after']).toBe('20');
		}
		expect((await statuses(other, 50)).every((status) => status === 200)).toBe(true);
		expect(s.server.admin.clearFaults()).toBe(1);
		expect((await statuses(shared, 30)).every((status) => status === 200)).toBe(true);
	});

	it('draws the same requests for the same seed and others for another', async () => {
		const run = async (seed: number) => {
			s.server.admin.clearFaults();
			s.server.admin.injectFault({ kind: '429', share: 0.5, seed, key: shared });
			return statuses(shared, 40);
		};
		const first = await run(3);
		expect(await run(3)).toEqual(first);
		expect(await run(4)).not.toEqual(first);
	});

	it('leaves the key’s window alone, logs the refusal and charges nothing', async () => {
		const limited = await startTestServer({ jobs: 5, faults: true, accounts: [{ id: 'f', plan: 'free' }] });
		try {
			const key = await limited.server.admin.issueKey('f');
			limited.server.admin.injectFault({ kind: '429', times: 3, retryAfterMs: 1500, key });
			const before = limited.server.admin.balance('f').totalMicrocents;
			const forced = await limited.call('search_jobs', { limit: 1 }, key);
			expect(forced.status).toBe(429);
			expect(forced.data.retryAfterMs).toBe(1500);
			expect(forced.headers['retry-after']).toBe('2');
			await limited.call('search_jobs', { limit: 1 }, key);
			await limited.call('search_jobs', { limit: 1 }, key);
			expect(limited.server.admin.balance('f').totalMicrocents).toBe(before);
			// The Free key's ten requests a minute are all still there.
			const after = [];
			for (let i = 0; i < 11; i++) after.push((await limited.call('search_jobs', { limit: 1 }, key)).status);
			expect(after).toEqual([...Array(10).fill(200), 429]);
			expect(limited.server.admin.callLog('f').map((e) => e.status)).toEqual([429, 429, 429, ...after]);
		} finally {
			await limited.server.close();
		}
	});

	it('answers MCP tool calls with the same 429 body as a tool error', async () => {
		s.server.admin.injectFault({ kind: '429', key: shared, retryAfterMs: 5000 });
		const res = await s.http.post(
			'/mcp',
			{ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'search_jobs', arguments: { limit: 1 } } },
			{ headers: { authorization: `Bearer ${shared}` } },
		);
		expect(res.data.result.isError).toBe(true);
		expect(res.data.result.structuredContent).toEqual({ error: expect.any(String), error_code: 'rate_limited', retryAfterMs: 5000 });
	});

	it('is armed and cleared over the admin API too, and refuses a bad fault naming the field', async () => {
		const admin = (path: string, body: unknown) => s.http.post(path, body, { headers: { authorization: 'Bearer admin' } });
		expect((await admin('/admin/faults', { kind: '429', share: 1, times: 2, key: shared })).status).toBe(201);
		expect(await statuses(shared, 3)).toEqual([429, 429, 200]);
		expect((await admin('/admin/faults', { kind: '429', share: 1, key: shared })).status).toBe(201);
		expect((await admin('/admin/faults/clear', {})).data).toEqual({ cleared: 1 });
		expect(await statuses(shared, 2)).toEqual([200, 200]);
		const bad = await admin('/admin/faults', { kind: '429', share: 2 });
		expect(bad.status).toBe(400);
		expect(bad.data.error).toMatch(/share must be a number above 0 and at most 1, got 2/);
		expect((await admin('/admin/faults', { kind: '429', key: 'gm_nobodys' })).data.error).toMatch(/key is not a key of any account/);
		expect((await admin('/admin/faults', { kind: 'teapot' })).data.error).toMatch(/unknown fault kind teapot; use one of .*429/);
		expect((await s.http.post('/admin/faults', { kind: '429' })).status).toBe(401);
		const off = await startTestServer({ jobs: 1, adminToken: 'admin' });
		try {
			const refused = await off.http.post('/admin/faults', { kind: '429' }, { headers: { authorization: 'Bearer admin' } });
			expect(refused.status).toBe(409);
			expect(refused.data.error_code).toBe('faults_disabled');
		} finally {
			await off.server.close();
		}
	});
});
