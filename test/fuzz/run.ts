/**
 * The fuzz suite: generated bodies, headers and methods against the reference server on loopback,
 * REST and MCP. Bounded in count and time; the seed is printed so a failure can be replayed.
 *
 *   npm run fuzz                      10,000 requests, then the pathological bodies
 *   npm run fuzz -- --quick           3,000 requests, seed 1 (what CI runs)
 *   npm run fuzz -- --count 20000 --seed 7 --time-limit 600
 *
 * Asserts: no 5xx; every error has the spec's shape and error_code (REST body, MCP tool error,
 * MCP 401, JSON-RPC error); nothing but a 200 is charged; each account's balance went down by
 * exactly the sum of consumedMicrocents it was told.
 */
import http from 'http';
import { monitorEventLoopDelay } from 'perf_hooks';
import { FILTERS, INPUT_BOUNDS, boundsOf, type FilterSpec } from '../../nodes/JobSearch/filters';
import { startServer, type RunningServer } from '../../server';
import { pathologicalCases } from './pathological';

interface Options {
	count: number;
	seed: number;
	timeLimitMs: number;
	concurrency: number;
	pathological: boolean;
}

function parseOptions(argv: string[]): Options {
	const quick = argv.includes('--quick') || process.env.FUZZ_QUICK === '1';
	const value = (name: string) => {
		const at = argv.indexOf(`--${name}`);
		return at === -1 ? undefined : Number(argv[at + 1]);
	};
	return {
		count: value('count') ?? (quick ? 3_000 : 10_000),
		// CI's short run keeps one seed so it cannot turn red by luck; the full run explores a new one each time.
		seed: value('seed') ?? (Number(process.env.FUZZ_SEED) || (quick ? 1 : Date.now() % 1_000_000)),
		timeLimitMs: (value('time-limit') ?? (quick ? 180 : 900)) * 1000,
		concurrency: value('concurrency') ?? 8,
		pathological: !quick && !argv.includes('--no-pathological'),
	};
}

/** mulberry32: small, fast, and the same sequence for the same seed. */
function rng(seed: number) {
	let a = seed >>> 0;
	const next = () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (n: number) => Math.floor(next() * n);
	const pick = <T>(items: readonly T[]): T => items[int(items.length)];
	const chance = (p: number) => next() < p;
	return { next, int, pick, chance };
}
type Rng = ReturnType<typeof rng>;

const TOOLS = ['search_jobs', 'get_job', 'get_client_activity', 'get_client_history'];
const ODD_METHODS = ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND', 'SEARCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'REPORT', 'PURGE'];
const ODD_STRINGS = ['', ' ', '__proto__', 'constructor', 'prototype', '\u0000', 'ü€𝄞', '"', '\\', '1e309', '-0', 'null', '24 hours', 'US', 'EXPERT', '2026-06-30T23:59:60Z', '2026-02-29T00:00:00Z', '2026-11-01T10:00:00', '9'.repeat(40)];

function text(r: Rng, max = 12): string {
	if (r.chance(0.2)) return r.pick(ODD_STRINGS);
	const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .-_/+#é';
	return Array.from({ length: r.int(max) + 1 }, () => r.pick([...alphabet])).join('');
}

function anyValue(r: Rng, depth = 0): unknown {
	switch (r.int(depth > 2 ? 6 : 8)) {
		case 0: return text(r);
		case 1: return r.int(20_000) - 100;
		case 2: return r.next() * 10;
		case 3: return r.chance(0.5);
		case 4: return null;
		case 5: return r.pick([1e308, -1, 0, 10_001, 0.5, Number.MAX_SAFE_INTEGER]);
		case 6: return Array.from({ length: r.int(4) }, () => anyValue(r, depth + 1));
		default: return Object.fromEntries(Array.from({ length: r.int(3) }, () => [text(r, 6), anyValue(r, depth + 1)]));
	}
}

/** A value the schema accepts for a filter, or near it (off by one past a bound, a wrong entry). */
function filterValue(r: Rng, spec: FilterSpec): unknown {
	const { maxItems = 5, maxLength = 10 } = boundsOf(spec);
	const length = r.chance(0.1) ? maxItems + r.int(3) : r.int(Math.min(maxItems, 6) + 1);
	switch (spec.type) {
		case 'integer':
		case 'number':
			return r.chance(0.8) ? (spec.minimum ?? 0) + r.int(((spec.maximum ?? 100) - (spec.minimum ?? 0)) + 2) : anyValue(r);
		case 'money':
			return r.chance(0.8) ? `${r.int(500)}${r.chance(0.3) ? `.${r.int(99)}` : ''}` : r.chance(0.5) ? '1'.repeat(maxLength + r.int(3) - 1) : anyValue(r);
		case 'boolean':
			return r.chance(0.9) ? r.chance(0.5) : anyValue(r);
		case 'dateTime': {
			if (!r.chance(0.8)) return r.chance(0.5) ? r.pick(ODD_STRINGS) : anyValue(r);
			const ms = Date.parse('2026-10-01T00:00:00Z') + r.int(60) * 86_400_000 + r.int(86_400_000);
			return new Date(ms).toISOString();
		}
		case 'choice':
			return r.chance(0.9) ? r.pick(spec.options).value : text(r);
		case 'choiceList':
			return Array.from({ length }, () => (r.chance(0.95) ? r.pick(spec.options).value : text(r)));
		case 'textList':
			return Array.from({ length }, () => (r.chance(0.05) ? 'k'.repeat(INPUT_BOUNDS.textLength + r.int(3) - 1) : text(r)));
		case 'locationList':
			return Array.from({ length: Math.min(length, 8) }, () =>
				r.chance(0.9) ? { type: 'COUNTRY', value: r.pick(['US', 'GB', 'DE', 'IN', 'BR', 'us', 'XYZ']) } : anyValue(r),
			);
	}
}

function toolInput(r: Rng, tool: string, uids: string[]): unknown {
	if (r.chance(0.03)) return anyValue(r);
	const body: Record<string, unknown> = {};
	if (tool === 'search_jobs') {
		for (let i = r.int(6); i > 0; i--) {
			const spec = r.pick(FILTERS);
			body[spec.key] = filterValue(r, spec);
		}
		if (r.chance(0.7)) body.limit = r.chance(0.9) ? r.int(5) + 1 : filterValue(r, FILTERS[0]);
	} else {
		body.jobUid = r.chance(0.7) ? r.pick(uids) : r.chance(0.5) ? String(r.int(1e9)) : anyValue(r);
		if (tool === 'get_job' && r.chance(0.3)) body.withClientHistory = r.chance(0.8) ? r.chance(0.5) : anyValue(r);
	}
	if (r.chance(0.05)) body[r.pick(['__proto__', 'constructor', 'budget.hourlyRate', 'limits', text(r)])] = anyValue(r);
	return body;
}

function jsonRpc(r: Rng, uids: string[], id: number): unknown {
	const pickId = () => (r.chance(0.9) ? id : r.pick<unknown>([null, 'x', 1.5, {}, id]));
	switch (r.int(10)) {
		case 0: return { jsonrpc: '2.0', id: pickId(), method: 'tools/list' };
		case 1: return { jsonrpc: '2.0', id: pickId(), method: r.pick(['initialize', 'ping', 'resources/list', 'nope', '']), params: anyValue(r) };
		case 2: return { jsonrpc: '2.0', method: 'notifications/initialized' };
		case 3: return { jsonrpc: r.pick(['1.0', 2, undefined]), id, method: 'tools/call', params: { name: 'search_jobs', arguments: {} } };
		default: {
			const name = r.chance(0.95) ? r.pick(TOOLS) : text(r);
			return { jsonrpc: '2.0', id: pickId(), method: 'tools/call', params: r.chance(0.97) ? { name, arguments: toolInput(r, name, uids) } : anyValue(r) };
		}
	}
}

/** JSON text with the occasional twist no serializer would produce. */
function bodyText(r: Rng, value: unknown): string {
	const json = JSON.stringify(value) ?? 'null';
	switch (r.int(60)) {
		case 0: return json.slice(0, Math.max(0, json.length - 1 - r.int(3)));
		case 1: return '';
		case 2: return `${'['.repeat(40 + r.int(100))}1${']'.repeat(40)}`;
		case 3: return json.replace('{', '{"__proto__":{"limit":5},');
		case 4: return `${json}${json}`;
		case 5: return ` \n\t${json}\n `;
		case 6: return r.chance(0.1) ? JSON.stringify({ 'includeKeywords.keywords': ['x'.repeat(10 * 1024 * 1024)] }) : JSON.stringify({ pad: 'x'.repeat(r.int(2 * 1024 * 1024)) });
		case 7: return JSON.stringify({ 'budget.jobDurations': Array(r.int(30_000)).fill('NOPE') });
		default: return json;
	}
}

interface Generated {
	method: string;
	path: string;
	headers: Record<string, string>;
	body?: string;
	mcp: boolean;
}

interface Keys {
	live: { key: string; accountId: string }[];
	revoked: string;
}

function generate(r: Rng, keys: Keys, uids: string[], id: number): Generated {
	const mcp = r.chance(0.3);
	const method = r.chance(0.92) ? 'POST' : r.pick(ODD_METHODS);
	const tool = r.chance(0.97) ? r.pick(TOOLS) : r.pick(['nope', '', 'search_jobs/x', '..%2Fadmin', 'SEARCH_JOBS']);
	const path = mcp ? (r.chance(0.98) ? '/mcp' : r.pick(['/mcp/', '/mcp?x=1', '/MCP'])) : `/v1/${tool}`;
	const headers: Record<string, string> = {};
	const auth = r.int(100);
	if (auth < 85) headers.authorization = `Bearer ${r.pick(keys.live).key}`;
	else if (auth < 89) headers.authorization = `Bearer ${keys.revoked}`;
	else if (auth < 93) headers.authorization = r.pick(['Bearer', 'Bearer gm_', 'Basic Zm9vOmJhcg==', 'bearer gm_AAAA', `Bearer ${'gm_'.padEnd(3000, 'x')}`]);
	const type = r.int(100);
	if (type < 88) headers['content-type'] = r.pick(['application/json', 'application/json; charset=utf-8', 'Application/JSON']);
	else if (type < 96) headers['content-type'] = r.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', 'multipart/form-data; boundary=x', '*/*']);
	if (mcp) headers.accept = r.pick(['application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*', 'text/html']);
	if (mcp && r.chance(0.1)) headers['mcp-protocol-version'] = r.pick(['2025-06-18', '2025-03-26', '1999-01-01', 'x']);
	if (r.chance(0.05)) headers[r.pick(['x-forwarded-for', 'x-fault', 'cookie', 'origin'])] = text(r).replace(/[^\x20-\x7e]/g, '?');
	let value: unknown;
	if (mcp) value = r.chance(0.08) ? Array.from({ length: r.int(25) }, (_, i) => jsonRpc(r, uids, r.chance(0.2) ? 1 : id * 100 + i)) : jsonRpc(r, uids, id);
	else value = toolInput(r, tool, uids);
	const body = method === 'GET' || method === 'HEAD' ? undefined : bodyText(r, value);
	return { method, path, headers, body, mcp };
}

interface Answer {
	status: number;
	headers: http.IncomingHttpHeaders;
	text: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

function send(base: URL, g: Generated): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const headers = { ...g.headers, ...(g.body !== undefined ? { 'content-length': String(Buffer.byteLength(g.body)) } : {}) };
		const req = http.request({ host: base.hostname, port: base.port, path: g.path, method: g.method, headers, agent }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(g.body);
	});
}

const REST_CODES: Record<number, string> = {
	400: 'validation_error',
	401: 'invalid_key',
	402: 'insufficient_credits',
	403: 'addon_forbidden',
	404: 'not_found',
	405: 'method_not_allowed',
	413: 'payload_too_large',
	429: 'rate_limited',
};

class Findings {
	readonly problems: string[] = [];
	readonly statuses = new Map<string, number>();
	/** consumedMicrocents told to each key, summed. */
	readonly told = new Map<string, number>();

	fail(g: Generated, a: Answer | undefined, why: string) {
		if (this.problems.length < 20) {
			this.problems.push(`${why}\n    ${g.method} ${g.path} ${JSON.stringify(g.headers).slice(0, 200)}\n    body: ${(g.body ?? '').slice(0, 300)}\n    answer: ${a?.status} ${a?.text.slice(0, 300)}`);
		} else this.problems.push(why);
	}

	count(label: string) {
		this.statuses.set(label, (this.statuses.get(label) ?? 0) + 1);
	}

	charge(key: string | undefined, consumed: unknown, g: Generated, a: Answer) {
		if (!Number.isSafeInteger(consumed) || (consumed as number) < 0) return this.fail(g, a, `consumedMicrocents is ${String(consumed)}`);
		if (key === undefined) return this.fail(g, a, 'a request without a live key was served');
		this.told.set(key, (this.told.get(key) ?? 0) + (consumed as number));
	}
}

function isErrorBody(body: unknown, status: number): string | undefined {
	const b = body as { error?: unknown; error_code?: unknown } | null;
	if (typeof b?.error !== 'string' || typeof b.error_code !== 'string') return 'error body lacks error or error_code';
	const expected = REST_CODES[status];
	if (status === 408 ? b.error_code !== 'request_timeout' : status === 431 ? b.error_code !== 'validation_error' : expected !== b.error_code) {
		return `status ${status} carries error_code ${b.error_code}`;
	}
	if (status === 402) {
		const x = body as Record<string, unknown>;
		if (!['message', 'upgradeUrl', 'hint'].every((k) => typeof x[k] === 'string') || !Number.isSafeInteger(x.neededMicrocents) || !Number.isSafeInteger(x.availableMicrocents)) {
			return '402 lacks its extra fields';
		}
	}
	if (status === 429 && !Number.isSafeInteger((body as { retryAfterMs?: unknown }).retryAfterMs)) return '429 lacks retryAfterMs';
	return undefined;
}

function keyOf(g: Generated, keys: Keys): string | undefined {
	const presented = /^Bearer (\S+)$/.exec(g.headers.authorization ?? '')?.[1];
	return keys.live.find((k) => k.key === presented)?.key;
}

function check(g: Generated, a: Answer, keys: Keys, f: Findings): void {
	f.count(`${g.mcp ? 'mcp' : 'rest'} ${a.status}`);
	if (a.status >= 500) return f.fail(g, a, `a ${a.status}`);
	if (g.method === 'HEAD') return;
	if (a.status === 405 && a.headers.allow !== 'POST') f.fail(g, a, '405 without Allow: POST');
	if (a.status === 429 && !/^\d+$/.test(String(a.headers['retry-after']))) f.fail(g, a, '429 without Retry-After');
	if (a.status === 202 && g.mcp) return;
	let body: unknown;
	try {
		body = JSON.parse(a.text);
	} catch {
		return f.fail(g, a, 'the answer is not JSON');
	}
	const key = keyOf(g, keys);
	const restShape = !g.mcp || a.status === 405 || a.status === 413 || (a.status === 404 && g.path !== '/mcp') || (a.status === 400 && !('jsonrpc' in (body as object)));
	if (restShape) {
		if (a.status === 200) {
			const usage = (body as { usage?: { consumedMicrocents?: unknown; remainingMicrocents?: unknown } }).usage;
			if (!('data' in (body as object)) || !Number.isSafeInteger(usage?.remainingMicrocents)) return f.fail(g, a, '200 without the envelope');
			return f.charge(key, usage!.consumedMicrocents, g, a);
		}
		const problem = isErrorBody(body, a.status);
		return problem ? f.fail(g, a, problem) : undefined;
	}
	// MCP
	if (a.status === 401) {
		const e = (body as { error?: { code?: unknown; message?: unknown } }).error;
		return e?.code === 401 && typeof e.message === 'string' ? undefined : f.fail(g, a, 'MCP 401 without its shape');
	}
	const messages = Array.isArray(body) ? body : [body];
	for (const m of messages as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown }; result?: Record<string, unknown> }[]) {
		if (m?.jsonrpc !== '2.0') return f.fail(g, a, 'an MCP answer that is not JSON-RPC 2.0');
		if (m.error) {
			if (typeof m.error.code !== 'number' || typeof m.error.message !== 'string') return f.fail(g, a, 'a JSON-RPC error without code and message');
			continue;
		}
		if (a.status !== 200) return f.fail(g, a, `a ${a.status} that carries a result`);
		const structured = m.result?.structuredContent as { usage?: { consumedMicrocents?: unknown }; error_code?: unknown } | undefined;
		if (!structured) continue; // tools/list, initialize, ping
		if (m.result!.isError === true) {
			const code = structured.error_code;
			const status = Number(Object.keys(REST_CODES).find((s) => REST_CODES[Number(s)] === code));
			const problem = Number.isNaN(status) ? `tool error_code ${String(code)}` : isErrorBody(structured, status);
			if (problem) return f.fail(g, a, `MCP tool error: ${problem}`);
		} else {
			f.charge(key, structured.usage?.consumedMicrocents, g, a);
		}
	}
}

async function pathologicalPhase(server: RunningServer, probeKey: string, attackKey: string, f: Findings): Promise<void> {
	const base = new URL(server.url);
	console.log('\npathological bodies (worst latency of another account meanwhile):');
	for (const c of pathologicalCases()) {
		const g: Generated = { method: 'POST', path: c.path, headers: { authorization: `Bearer ${attackKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: c.body, mcp: c.path === '/mcp' };
		let done = false;
		let worst = 0;
		const pending = send(base, g).finally(() => (done = true));
		while (!done) {
			const started = performance.now();
			await send(base, { method: 'POST', path: '/v1/get_job', headers: { authorization: `Bearer ${probeKey}`, 'content-type': 'application/json' }, body: '{"jobUid":"1"}', mcp: false });
			worst = Math.max(worst, performance.now() - started);
		}
		const a = await pending;
		console.log(`  ${c.name.padEnd(44)} ${a.status}  other account waited at most ${worst.toFixed(0).padStart(4)} ms`);
		check(g, a, { live: [{ key: attackKey, accountId: '' }], revoked: '' }, f);
	}
}

async function main(): Promise<void> {
	const options = parseOptions(process.argv.slice(2));
	console.log(`fuzz: ${options.count} requests, seed ${options.seed}, time limit ${options.timeLimitMs / 1000} s, concurrency ${options.concurrency} (replay: npm run fuzz -- --seed ${options.seed} --count ${options.count})`);
	const server = await startServer({
		host: '127.0.0.1',
		jobs: 300,
		accounts: [
			{ id: 'free', plan: 'free', keys: [] },
			{ id: 'pro', plan: 'pro', keys: [] },
			{ id: 'pro-poor', plan: 'pro', poolMicrocents: 3_000_000, packMicrocents: 0, keys: [] },
			{ id: 'enterprise', plan: 'enterprise', keys: [] },
			{ id: 'probe', plan: 'enterprise', keys: [] },
		],
		rateLimits: { pro: { requests: 1_000_000, windowMs: 60_000 } },
	});
	const ids = ['free', 'pro', 'pro-poor', 'enterprise'];
	const keys: Keys = { live: [], revoked: await server.admin.issueKey('pro') };
	for (const id of ids) keys.live.push({ key: await server.admin.issueKey(id), accountId: id });
	await server.admin.revokeKey(keys.revoked);
	const before = new Map(ids.map((id) => [id, server.admin.balance(id).totalMicrocents]));
	const uids = server.admin.visibleJobs().slice(0, 20).map((j) => j.uid);
	const findings = new Findings();
	const r = rng(options.seed);
	const base = new URL(server.url);
	const lag = monitorEventLoopDelay({ resolution: 10 });
	lag.enable();
	const started = Date.now();
	let sent = 0;
	let next = 0;
	const worker = async () => {
		while (next < options.count && Date.now() - started < options.timeLimitMs) {
			const id = next++;
			const g = generate(r, keys, uids, id);
			try {
				check(g, await send(base, g), keys, findings);
			} catch (error) {
				findings.fail(g, undefined, `transport error ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
			}
			sent++;
		}
	};
	await Promise.all(Array.from({ length: options.concurrency }, worker));
	const seconds = (Date.now() - started) / 1000;
	lag.disable();

	// Billing: each account paid exactly what it was told, and only 200s paid.
	for (const { key, accountId } of keys.live) {
		const paid = before.get(accountId)! - server.admin.balance(accountId).totalMicrocents;
		const told = findings.told.get(key) ?? 0;
		if (paid !== told) findings.problems.push(`${accountId}: balance went down by ${paid} but responses told ${told}`);
		const log = server.admin.callLog(accountId);
		const charged = log.filter((e) => e.status !== 200 && e.consumedMicrocents !== 0);
		if (charged.length > 0) findings.problems.push(`${accountId}: ${charged.length} calls charged with status ${charged[0].status}`);
		const logged = log.reduce((sum, e) => sum + e.consumedMicrocents, 0);
		if (logged !== paid) findings.problems.push(`${accountId}: call log sums ${logged}, balance went down by ${paid}`);
	}
	if (sent < options.count) findings.problems.push(`time limit reached after ${sent} of ${options.count} requests`);

	const statuses = [...findings.statuses.entries()].sort().map(([k, v]) => `${k}: ${v}`).join(', ');
	console.log(`sent ${sent} requests in ${seconds.toFixed(1)} s (${(sent / seconds).toFixed(0)}/s)`);
	console.log(`statuses: ${statuses}`);
	console.log(`charged: ${[...findings.told.values()].reduce((a, b) => a + b, 0)} microcents over ${findings.told.size} keys, all matching balances: ${findings.problems.every((p) => !p.includes('balance'))}`);
	console.log(`event loop delay (server and client share it): p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms`);

	if (options.pathological) {
		const probe = await server.admin.issueKey('probe');
		const attacker = await server.admin.issueKey('enterprise');
		await pathologicalPhase(server, probe, attacker, findings);
	}
	agent.destroy();
	await server.close();
	if (findings.problems.length > 0) {
		console.error(`\nFUZZ FAILED (seed ${options.seed}): ${findings.problems.length} problem(s)`);
		for (const p of findings.problems.slice(0, 20)) console.error(`- ${p}`);
		process.exit(1);
	}
	console.log('fuzz: ok');
}

void main().catch((error) => {
	console.error(error);
	process.exit(1);
});
