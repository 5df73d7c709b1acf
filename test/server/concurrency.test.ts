import { startTestServer, type TestServer } from './helpers';

const GET_JOB = 1_950_000;

let t: TestServer;

beforeAll(async () => {
	t = await startTestServer({ jobs: 50, accounts: [{ id: 'busy', plan: 'enterprise', keys: [] }] });
});

afterAll(() => t.server.close());

describe('200 parallel paid calls on one account', () => {
	it('leave an exact, never-negative balance and one call-log entry per call, over REST and MCP at once', async () => {
		const key = await t.server.admin.issueKey('busy');
		// Enough for 120 full lookups and half of one more: the rest must be refused, none overdrawn.
		const start = 120 * GET_JOB + GET_JOB / 2;
		t.server.admin.setBalance('busy', { poolMicrocents: 100 * GET_JOB, packMicrocents: start - 100 * GET_JOB });
		const jobUid = t.server.admin.visibleJobs()[0].uid;

		const rest = Array.from({ length: 100 }, () => t.call('get_job', { jobUid }, key).then((r) => ({ status: r.status, body: r.data })));
		const mcp = Array.from({ length: 100 }, (_, i) =>
			t.http
				.post('/mcp', { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'get_job', arguments: { jobUid } } }, { headers: { authorization: `Bearer ${key}` } })
				.then((r) => {
					const body = JSON.parse(r.data.result.content[0].text);
					return { status: r.data.result.isError ? (body.error_code === 'insufficient_credits' ? 402 : 500) : 200, body };
				}),
		);
		const results = await Promise.all([...rest, ...mcp]);

		const served = results.filter((r) => r.status === 200);
		const refused = results.filter((r) => r.status === 402);
		expect(served).toHaveLength(121);
		expect(refused).toHaveLength(79);
		const consumed = served.reduce((sum, r) => sum + r.body.usage.consumedMicrocents, 0);
		const balance = t.server.admin.balance('busy');
		expect(consumed).toBe(start - balance.totalMicrocents);
		expect(balance).toEqual({ poolMicrocents: 0, packMicrocents: 0, totalMicrocents: 0 });
		const remaining = served.map((r) => r.body.usage.remainingMicrocents).sort((a, b) => b - a);
		expect(Math.min(...remaining)).toBe(0);
		expect(new Set(remaining).size).toBe(121);

		const log = t.server.admin.callLog('busy');
		expect(log).toHaveLength(200);
		expect(log.filter((e) => e.status === 200)).toHaveLength(121);
		expect(log.reduce((sum, e) => sum + e.consumedMicrocents, 0)).toBe(consumed);
		expect(log.filter((e) => e.transport === 'mcp')).toHaveLength(100);
	});
});
