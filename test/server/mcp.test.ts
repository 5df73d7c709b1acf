import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { toolDefinitions } from '../../nodes/JobSearch/filters';
import { startTestServer, type TestServer } from './helpers';

let t: TestServer;
let pro: string;
let free: string;
const clients: Client[] = [];

async function connect(key: string): Promise<Client> {
	const client = new Client({ name: 'conformance-test', version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(t.server.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
	);
	clients.push(client);
	return client;
}

function rpc(key: string | undefined, body: unknown, accept = 'application/json') {
	return t.http.post('/mcp', body, {
		headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json', accept },
	});
}

/** The REST body an MCP tool error carries as its text. */
function errorBody(result: unknown) {
	return JSON.parse((result as { content: { text: string }[] }).content[0].text);
}

beforeAll(async () => {
	t = await startTestServer({
		accounts: [{ id: 'pro', plan: 'pro' }, { id: 'free', plan: 'free' }],
		rateLimits: { pro: { requests: 5, windowMs: 60_000 } },
	});
	pro = await t.server.admin.issueKey('pro');
	free = await t.server.admin.issueKey('free');
});

afterEach(() => t.clock.advance(60_000));

afterAll(async () => {
	await Promise.all(clients.map((c) => c.close()));
	await t.server.close();
});

describe('MCP through the official SDK client', () => {
	it('lists the four tools with the input schemas of the filter schema', async () => {
		const client = await connect(pro);
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name)).toEqual(toolDefinitions().map((d) => d.name));
		for (const definition of toolDefinitions()) {
			expect(tools.find((tool) => tool.name === definition.name)!.inputSchema).toEqual(definition.inputSchema);
		}
	});

	it('advertises each search period once, as the schema names it, and still accepts the other spelling', async () => {
		const client = await connect(pro);
		const { tools } = await client.listTools();
		const searchJobs = tools.find((tool) => tool.name === 'search_jobs')!.inputSchema as { properties: Record<string, { enum?: string[] }> };
		expect(searchJobs.properties.searchPeriod.enum).toEqual(['1h', '6h', '24h', '7d', '14d', '30d']);
		const result = await client.callTool({ name: 'search_jobs', arguments: { limit: 1, searchPeriod: '24 hours' } });
		expect(result.isError).toBeFalsy();
	});

	it('serves search_jobs with the REST envelope, bills it, and logs it as an MCP call', async () => {
		const client = await connect(pro);
		const before = t.server.admin.balance('pro').totalMicrocents;
		const result = await client.callTool({ name: 'search_jobs', arguments: { limit: 2 } });
		expect(result.isError).toBeFalsy();
		const envelope = result.structuredContent as { data: { jobs: unknown[]; total: number }; usage: { consumedMicrocents: number; remainingMicrocents: number } };
		expect(envelope.data.jobs).toHaveLength(2);
		expect(envelope.usage.consumedMicrocents).toBe(2 * 579_000);
		expect(t.server.admin.balance('pro').totalMicrocents).toBe(before - 2 * 579_000);
		expect(t.server.admin.callLog('pro').at(-1)).toMatchObject({ tool: 'search_jobs', transport: 'mcp', status: 200, consumedMicrocents: 2 * 579_000 });
	});

	it('refuses a wrong key with 401 and the MCP error body', async () => {
		await expect(connect('gm_dW5rbm93bi1rZXk')).rejects.toThrow();
		const res = await rpc('gm_dW5rbm93bi1rZXk', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
		expect(res.status).toBe(401);
		expect(res.data).toEqual({ error: { code: 401, message: 'Invalid or missing API key' } });
		expect((await rpc(undefined, { jsonrpc: '2.0', id: 1, method: 'initialize' })).status).toBe(401);
	});

	it('refuses a revoked key on its next request', async () => {
		const key = await t.server.admin.issueKey('pro');
		const client = await connect(key);
		await t.server.admin.revokeKey(key);
		await expect(client.listTools()).rejects.toThrow(/401/);
	});

	it('returns 402 as a tool error carrying the REST body', async () => {
		const { key } = await t.server.admin.createAccount({ plan: 'pro', poolMicrocents: 0 });
		const client = await connect(key);
		const result = await client.callTool({ name: 'get_job', arguments: { jobUid: t.server.admin.visibleJobs()[0].uid } });
		expect(result.isError).toBe(true);
		expect(errorBody(result)).toMatchObject({ error_code: 'insufficient_credits', neededMicrocents: 1_950_000, availableMicrocents: 0 });
	});

	it('returns 403 addon_forbidden as a tool error on the free plan', async () => {
		const client = await connect(free);
		const result = await client.callTool({ name: 'get_client_activity', arguments: { jobUid: t.server.admin.visibleJobs()[0].uid } });
		expect(result.isError).toBe(true);
		expect(errorBody(result).error_code).toBe('addon_forbidden');
	});

	it('shares the per-key rate limit with REST, and retrying at retryAfterMs succeeds', async () => {
		const client = await connect(pro);
		for (let i = 0; i < 5; i++) expect((await t.call('search_jobs', { limit: 1 }, pro)).status).toBe(200);
		const result = await client.callTool({ name: 'search_jobs', arguments: { limit: 1 } });
		expect(result.isError).toBe(true);
		const body = errorBody(result);
		expect(body).toMatchObject({ error_code: 'rate_limited', retryAfterMs: 60_000 });
		t.clock.advance(body.retryAfterMs);
		expect((await client.callTool({ name: 'search_jobs', arguments: { limit: 1 } })).isError).toBeFalsy();
	});

	it('does not bill or rate-limit initialize and tools/list, but still checks the key', async () => {
		const before = t.server.admin.balance('pro').totalMicrocents;
		for (let i = 0; i < 5; i++) await t.call('search_jobs', { limit: 1 }, pro);
		const client = await connect(pro);
		for (let i = 0; i < 10; i++) await client.listTools();
		expect(t.server.admin.balance('pro').totalMicrocents).toBe(before - 5 * 579_000);
		expect((await t.call('search_jobs', { limit: 1 }, pro)).status).toBe(429);
	});

	it('validates tool arguments against the filter schema and names the field', async () => {
		const client = await connect(pro);
		const result = await client.callTool({ name: 'search_jobs', arguments: { 'budget.hourlyRate.min': 10 } });
		expect(result.isError).toBe(true);
		expect(errorBody(result)).toMatchObject({ error_code: 'validation_error' });
		expect(errorBody(result).error).toContain('budget.hourlyRate.min');
	});
});

describe('MCP for plain JSON clients', () => {
	it('answers tools/list without a prior initialize and without an SSE Accept header', async () => {
		const res = await rpc(pro, { jsonrpc: '2.0', id: 7, method: 'tools/list' });
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toMatch(/application\/json/);
		expect(res.data.id).toBe(7);
		expect(res.data.result.tools).toHaveLength(4);
	});

	it('answers tools/call without a prior initialize', async () => {
		const res = await rpc(pro, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'search_jobs', arguments: { limit: 1 } } }, '*/*');
		expect(res.status).toBe(200);
		expect(JSON.parse(res.data.result.content[0].text).data.jobs).toHaveLength(1);
	});

	it('answers other methods with 405 and Allow: POST', async () => {
		const res = await t.http.get('/mcp', { headers: { authorization: `Bearer ${pro}` } });
		expect(res.status).toBe(405);
		expect(res.headers.allow).toBe('POST');
	});

	it('answers malformed JSON with a JSON-RPC parse error', async () => {
		const res = await rpc(pro, '{"jsonrpc":');
		expect(res.status).toBe(400);
		expect(res.data.error.code).toBe(-32700);
	});
});
