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
		const started = Date.now();
		const res = await t.call('search_jobs', { limit: 1 }, key, { 'x-fault': 'delay=150' });
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
		expect(res.status).toBe(200);
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
