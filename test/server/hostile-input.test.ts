import net from 'net';
import { COUNTRY_CODES, FILTERS, INPUT_BOUNDS, boundsOf, categoryValues, type FilterSpec } from '../../nodes/JobSearch/filters';
import { MAX_JSON_DEPTH } from '../../server/jsonBody';
import { pathologicalCases } from '../fuzz/pathological';
import type { AuthenticatedRequest } from '../../server';
import { startTestServer, USD, type TestServer } from './helpers';

let t: TestServer;
let pro: string;
/** Told of each tool request whose key the server accepted from its headers, before its body is read. */
let onAuthenticated: (request: AuthenticatedRequest) => void = () => undefined;

beforeAll(async () => {
	t = await startTestServer({
		accounts: [{ id: 'pro', plan: 'pro', poolMicrocents: 1000 * USD, keys: [] }],
		rateLimits: { pro: { requests: 100_000, windowMs: 60_000 } },
		onAuthenticated: (request) => onAuthenticated(request),
	});
	pro = await t.server.admin.issueKey('pro');
});

afterAll(() => t.server.close());

const balance = () => t.server.admin.balance('pro').totalMicrocents;
const raw = (path: string, body: string, key = pro) =>
	t.http.post(path, body, {
		headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
		maxBodyLength: Infinity,
		transformRequest: [(data: unknown) => data],
	});
const mcpCall = (args: unknown, id: number | string = 1) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_jobs', arguments: args } });
/** The REST error body an MCP tool error carries. */
const toolError = (data: { result: { isError?: boolean; structuredContent: unknown } }) => {
	expect(data.result.isError).toBe(true);
	return data.result.structuredContent as { error: string; error_code: string };
};

/** The largest value the schema accepts for a filter: every list at its maximum, every text at full length. */
function largestValue(spec: FilterSpec): unknown {
	const { maxItems = 0, maxLength = 0 } = boundsOf(spec);
	switch (spec.type) {
		case 'choiceList':
			return spec.key === 'jobCategories' ? categoryValues().slice(0, maxItems) : spec.options.map((o) => o.value);
		case 'textList':
			return Array.from({ length: maxItems }, (_, i) => `${i}`.padEnd(maxLength, 'k'));
		case 'locationList':
			return Array.from({ length: maxItems }, (_, i) => ({ type: 'COUNTRY', value: COUNTRY_CODES[i % COUNTRY_CODES.length] }));
		case 'money':
			return '1'.repeat(maxLength);
		case 'dateTime':
			return `2026-11-01T00:00:00.${'1'.repeat(maxLength - 21)}Z`;
		case 'integer':
		case 'number':
			return spec.minimum ?? 0;
		case 'boolean':
			return true;
		case 'choice':
			return spec.options[0].value;
	}
}

describe('one request cannot hold the server: the schema bounds every list and text', () => {
	it('refuses 16,000 values of a five-value list by its length, naming the field and the bound, without a charge', async () => {
		const before = balance();
		const res = await t.call('search_jobs', { 'budget.jobDurations': Array(16_000).fill('NOPE') }, pro);
		expect(res.status).toBe(400);
		expect(res.data.error_code).toBe('validation_error');
		expect(res.data.error).toContain('budget.jobDurations');
		expect(res.data.error).toContain('has 16000 entries; at most 5 are allowed');
		expect(res.data.error.length).toBeLessThan(400);
		expect(balance()).toBe(before);
	});

	it(`refuses more than ${INPUT_BOUNDS.textListItems} keywords and a keyword longer than ${INPUT_BOUNDS.textLength} characters`, async () => {
		const many = await t.call('search_jobs', { 'includeKeywords.keywords': Array.from({ length: 8_000 }, (_, i) => `kw${i}`) }, pro);
		expect(many.status).toBe(400);
		expect(many.data.error).toContain(`at most ${INPUT_BOUNDS.textListItems} are allowed`);
		const long = await t.call('search_jobs', { 'includeKeywords.keywords': ['a'.repeat(3 * 1024 * 1024)] }, pro);
		expect(long.status).toBe(400);
		expect(long.data.error).toContain(`longer than ${INPUT_BOUNDS.textLength} characters`);
		expect(long.data.error.length).toBeLessThan(400);
	});

	it('describes many bad entries of one list in one short message, not one per entry', async () => {
		const res = await t.call('search_jobs', { 'budget.jobDurations': ['A', 'B', 'C', 'D', 'E'] }, pro);
		expect(res.status).toBe(400);
		expect(res.data.error.match(/Job Durations/g)).toHaveLength(1);
		expect(res.data.error).toContain('"A", "B", "C", "D", "E"');
	});

	it('names at most three unknown keys of a body with thousands, and counts the rest', async () => {
		const body = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, 1]));
		const res = await t.call('search_jobs', body, pro);
		expect(res.status).toBe(400);
		expect(res.data.error).toContain('Unknown field "k0"');
		expect(res.data.error).toContain('and 4997 more unknown fields');
	});

	it('serves the largest search the schema accepts, every list at its bound', async () => {
		const body = Object.fromEntries(FILTERS.map((f) => [f.key, largestValue(f)]));
		body.fromDate = '2026-01-01T00:00:00.000Z';
		body.toDate = `2026-11-01T00:00:00.${'1'.repeat(INPUT_BOUNDS.dateTimeLength - 21)}Z`;
		const res = await t.call('search_jobs', body, pro);
		expect(res.data).toEqual({ data: { jobs: [], total: 0 }, usage: { consumedMicrocents: 0, remainingMicrocents: expect.any(Number) } });
	});

	it('answers every pathological body with a 4xx in the spec shape and bills nothing', async () => {
		const before = balance();
		for (const c of pathologicalCases()) {
			const res = await raw(c.path, c.body);
			expect({ case: c.name, status: res.status < 500 }).toEqual({ case: c.name, status: true });
			if (c.path === '/mcp') continue;
			expect({ case: c.name, code: typeof res.data.error_code }).toEqual({ case: c.name, code: res.status === 200 ? 'undefined' : 'string' });
		}
		const served = t.server.admin.callLog('pro').filter((e) => e.status === 200);
		expect(before - balance()).toBe(served.reduce((sum, e) => sum + e.consumedMicrocents, 0));
	});
});

describe('input the schema accepts never gets a 5xx', () => {
	it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels as a validation_error, not a 500`, async () => {
		const deep = `{"limit":${'['.repeat(5_000)}1${']'.repeat(5_000)}}`;
		const res = await raw('/v1/search_jobs', deep);
		expect(res.status).toBe(400);
		expect(res.data).toEqual({ error: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH} levels`), error_code: 'validation_error' });
	});

	it('refuses a keyword of several MiB as too long, not with a 500', async () => {
		const res = await t.call('search_jobs', { 'excludeKeywords.keywords': ['(a+)+'.repeat(500_000)] }, pro);
		expect(res.status).toBe(400);
		expect(res.data.error).toContain('excludeKeywords.keywords');
	});

	it('describes a nested wrong value with a short preview', async () => {
		const res = await raw('/v1/search_jobs', `{"limit":${'['.repeat(30)}1${']'.repeat(30)}}`);
		expect(res.status).toBe(400);
		expect(res.data.error).toContain('Limit (limit) must be a whole number');
		expect(res.data.error.length).toBeLessThan(200);
	});
});

describe('a key revoked while the body is still arriving', () => {
	afterEach(() => {
		onAuthenticated = () => undefined;
	});

	/**
	 * Sends the headers and half the body; once the server has accepted the key from the headers
	 * (its onAuthenticated hook, not a delay), runs `between`, then sends the rest. Resolves with
	 * the answer.
	 */
	function splitRequest(path: string, body: string, key: string, between: () => Promise<void>): Promise<{ status: number; body: string }> {
		const url = new URL(t.server.url);
		return new Promise((resolve, reject) => {
			const half = Math.floor(body.length / 2);
			const socket = net.connect(Number(url.port), url.hostname);
			onAuthenticated = (request) => {
				if (request.path !== path) return;
				onAuthenticated = () => undefined;
				void between().then(() => socket.write(body.slice(half)), reject);
			};
			let answer = '';
			socket.on('data', (d) => (answer += d.toString()));
			socket.on('error', reject);
			socket.on('close', () => {
				const [head, ...rest] = answer.split('\r\n\r\n');
				resolve({ status: Number(head.split(' ')[1]), body: rest.join('\r\n\r\n') });
			});
			socket.write(
				`POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
			);
		});
	}

	/** A fresh key, shown to work on `path` first, so that a later 401 can only come from the revocation. */
	async function workingKey(path: string, body: string): Promise<string> {
		const key = await t.server.admin.issueKey('pro');
		const res = await raw(path, body, key);
		expect(res.status).toBe(200);
		return key;
	}

	it('is refused with 401 invalid_key on REST and nothing is charged', async () => {
		const body = JSON.stringify({ limit: 5 });
		const key = await workingKey('/v1/search_jobs', body);
		const before = balance();
		const res = await splitRequest('/v1/search_jobs', body, key, () => t.server.admin.revokeKey(key));
		expect(res.status).toBe(401);
		expect(JSON.parse(res.body)).toEqual({ error: expect.any(String), error_code: 'invalid_key' });
		expect(balance()).toBe(before);
	});

	it('is refused with the MCP 401 and nothing is charged', async () => {
		const body = JSON.stringify(mcpCall({ limit: 5 }));
		const key = await workingKey('/mcp', body);
		const before = balance();
		const res = await splitRequest('/mcp', body, key, () => t.server.admin.revokeKey(key));
		expect(res.status).toBe(401);
		expect(JSON.parse(res.body)).toEqual({ error: { code: 401, message: expect.any(String) } });
		expect(balance()).toBe(before);
	});
});

describe('a request that never finishes', () => {
	it('gets 408 request_timeout once the request timeout passes, and its connection is closed', async () => {
		const slow = await startTestServer({ jobs: 5, requestTimeoutMs: 200 });
		try {
			const url = new URL(slow.server.url);
			const answer = await new Promise<string>((resolve, reject) => {
				const socket = net.connect(Number(url.port), url.hostname);
				let text = '';
				socket.on('data', (d) => (text += d.toString()));
				socket.on('error', reject);
				socket.on('close', () => resolve(text));
				// Headers and one byte of a 100-byte body, then nothing.
				socket.write(
					`POST /v1/search_jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${slow.server.admin.demoKeys.pro}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
				);
			});
			expect(answer).toMatch(/^HTTP\/1\.1 408 /);
			expect(JSON.parse(answer.split('\r\n\r\n')[1])).toEqual({ error: expect.any(String), error_code: 'request_timeout' });
		} finally {
			await slow.server.close();
		}
	});
});

describe('413 lets the client finish sending', () => {
	it('reads the rest of an oversized body after the 413, so the client sees the answer and not a reset', async () => {
		const url = new URL(t.server.url);
		const MiB = 1024 * 1024;
		const outcome = await new Promise<{ answer: string; sent: number; error?: string }>((resolve) => {
			const socket = net.connect(Number(url.port), url.hostname);
			let answer = '';
			let sent = 0;
			let error: string | undefined;
			socket.on('data', (d) => (answer += d.toString()));
			socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code));
			socket.on('close', () => resolve({ answer, sent, error }));
			socket.write(`POST /v1/search_jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${pro}\r\nContent-Type: application/json\r\nContent-Length: ${20 * MiB}\r\n\r\n`);
			const chunk = Buffer.alloc(MiB, 32);
			const sendNext = () => {
				if (socket.destroyed) return;
				if (sent === 20) return void socket.end();
				sent++;
				// Wait for each MiB to leave, and for the 413 to arrive before most of the body is sent.
				socket.write(chunk, () => setTimeout(sendNext, answer === '' ? 20 : 1));
			};
			sendNext();
		});
		expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
		expect(outcome.answer).toContain('"error_code":"payload_too_large"');
		expect(outcome).toMatchObject({ sent: 20, error: undefined });
	});
});

describe('HTTP-level refusals', () => {
	it.each(['PROPFIND', 'SEARCH', 'MKCOL', 'OPTIONS', 'HEAD'])('answers %s on REST and MCP with 405 and Allow: POST', async (method) => {
		for (const url of ['/v1/search_jobs', '/mcp']) {
			const res = await t.http.request({ url, method, headers: { authorization: `Bearer ${pro}` } });
			expect({ url, status: res.status, allow: res.headers.allow }).toEqual({ url, status: 405, allow: 'POST' });
			if (method !== 'HEAD') expect(res.data.error_code).toBe('method_not_allowed');
		}
	});

	it('answers a malformed request line and oversized headers with an error_code', async () => {
		const url = new URL(t.server.url);
		const send = (text: string) =>
			new Promise<string>((resolve) => {
				const socket = net.connect(Number(url.port), url.hostname);
				let answer = '';
				socket.on('data', (d) => (answer += d.toString()));
				socket.on('error', () => undefined);
				socket.on('close', () => resolve(answer));
				socket.write(text);
			});
		const malformed = await send('BREW /v1/search_jobs HTTP/1.1\r\nHost: x\r\n\r\n');
		expect(malformed).toMatch(/^HTTP\/1\.1 400 /);
		expect(malformed).toContain('"error_code":"validation_error"');
		const huge = await send(`POST /v1/search_jobs HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`);
		expect(huge).toMatch(/^HTTP\/1\.1 431 /);
		expect(huge).toContain('"error_code":"validation_error"');
	});

	it('answers a URL Fastify cannot decode with validation_error', async () => {
		const res = await t.http.post('/v1/%E0%A4%A', {}, { headers: { authorization: `Bearer ${pro}`, 'content-type': 'application/json' } });
		expect(res.status).toBeGreaterThanOrEqual(400);
		expect(res.status).toBeLessThan(500);
		expect(res.data.error_code).toEqual(expect.any(String));
	});
});

describe('__proto__ is an unknown key like any other', () => {
	it('refuses it at the top of a REST body by name, not as invalid JSON, and charges nothing', async () => {
		const before = balance();
		const res = await raw('/v1/search_jobs', '{"limit":1,"__proto__":{"limit":5}}');
		expect(res.status).toBe(400);
		expect(res.data).toEqual({ error: expect.stringContaining('Unknown field "__proto__"'), error_code: 'validation_error' });
		expect(balance()).toBe(before);
	});

	it('refuses it inside a country entry by name', async () => {
		const res = await raw('/v1/search_jobs', '{"client.includeLocations":[{"type":"COUNTRY","value":"US","__proto__":{}}]}');
		expect(res.status).toBe(400);
		expect(res.data.error).toContain('unknown key "__proto__"');
	});

	it('refuses it in MCP tool arguments instead of serving the call without it', async () => {
		const before = balance();
		const res = await raw('/mcp', JSON.stringify(mcpCall({ limit: 1 })).replace('"limit":1', '"limit":1,"__proto__":{"x":1}'));
		expect(res.status).toBe(200);
		expect(toolError(res.data)).toEqual({ error: expect.stringContaining('Unknown field "__proto__"'), error_code: 'validation_error' });
		expect(balance()).toBe(before);
	});
});

describe('an MCP batch', () => {
	it('that repeats an id is refused whole, before any call runs or is billed', async () => {
		const before = balance();
		const calls = t.server.admin.callLog('pro').length;
		const res = await raw('/mcp', JSON.stringify([mcpCall({ limit: 1 }, 7), mcpCall({ limit: 2 }, 7), mcpCall({ limit: 3 }, 8)]));
		expect(res.status).toBe(400);
		expect(res.data.error).toEqual({ code: -32600, message: expect.stringContaining('repeats the id 7') });
		expect(balance()).toBe(before);
		expect(t.server.admin.callLog('pro')).toHaveLength(calls);
	});

	it('with distinct ids answers each call and bills each once', async () => {
		const before = balance();
		const res = await raw('/mcp', JSON.stringify([mcpCall({ limit: 1 }, 1), mcpCall({ limit: 2 }, 2)]));
		expect(res.status).toBe(200);
		const consumed = (res.data as { result: { structuredContent: { usage: { consumedMicrocents: number } } } }[]).map(
			(r) => r.result.structuredContent.usage.consumedMicrocents,
		);
		expect(consumed).toHaveLength(2);
		expect(before - balance()).toBe(consumed[0] + consumed[1]);
	});
});

describe('dates the service cannot place', () => {
	it.each(['2026-06-30T23:59:60Z', '2026-02-29T00:00:00Z', '2026-11-01T24:00:00Z', '2026-11-01T00:00:00+24:00'])(
		'refuses %s by the schema, naming fromDate, before anything is billed',
		async (fromDate) => {
			const before = balance();
			const res = await t.call('search_jobs', { fromDate }, pro);
			expect(res.status).toBe(400);
			expect(res.data.error).toContain('fromDate');
			expect(balance()).toBe(before);
		},
	);
});

describe('404 not_found', () => {
	it('charges nothing for get_job of a uid that does not exist, on REST and MCP, and logs it as free', async () => {
		const before = balance();
		const rest = await t.call('get_job', { jobUid: '42' }, pro);
		expect(rest.status).toBe(404);
		const mcp = await raw('/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_job', arguments: { jobUid: '42' } } }));
		expect(toolError(mcp.data).error_code).toBe('not_found');
		expect(balance()).toBe(before);
		const notFound = t.server.admin.callLog('pro').filter((e) => e.status === 404);
		expect(notFound.length).toBeGreaterThanOrEqual(2);
		expect(notFound.every((e) => e.consumedMicrocents === 0)).toBe(true);
	});
});
