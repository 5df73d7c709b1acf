import http from 'http';
import { FILTERS } from '../../nodes/JobSearch/filters';
import { startTestServer, USD, type TestServer } from './helpers';

const SEARCH_ROW = 579_000;
const GET_JOB = 1_950_000;
const PREMIUM_RESULT = 540_000;

let t: TestServer;
let pro: string;
let free: string;

beforeAll(async () => {
	t = await startTestServer({
		accounts: [
			{ id: 'pro', plan: 'pro', keys: [] },
			{ id: 'free', plan: 'free', keys: [] },
		],
		// Billing rows must not trip the limit; the 429 rows use their own accounts below.
		rateLimits: { pro: { requests: 10_000, windowMs: 60_000 }, free: { requests: 10_000, windowMs: 60_000 } },
	});
	pro = await t.server.admin.issueKey('pro');
	free = await t.server.admin.issueKey('free');
});

afterAll(() => t.server.close());

describe('the success envelope', () => {
	it('answers a search with data.jobs, data.total and usage, and jobs carry the spec types', async () => {
		const res = await t.call('search_jobs', { limit: 3 }, pro);
		expect(res.status).toBe(200);
		expect(Object.keys(res.data).sort()).toEqual(['data', 'usage']);
		expect(res.data.data.jobs).toHaveLength(3);
		expect(res.data.data.total).toBe(200);
		for (const job of res.data.data.jobs) {
			expect(job.uid).toMatch(/^[0-9]+$/);
			expect(typeof job.title).toBe('string');
			expect(typeof job.hourlyRate).toBe('number');
			expect(job.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
		}
		expect(res.data.usage).toEqual({ consumedMicrocents: 3 * SEARCH_ROW, remainingMicrocents: expect.any(Number) });
	});

	it('returns newest first with ties broken by uid descending, and counts total before the limit', async () => {
		const at = '2026-11-20T11:00:00.000Z';
		const [a, b] = t.server.admin.addJobs([{ createdAt: at, uid: '5000000000000000001' }, { createdAt: at, uid: '5000000000000000002' }]);
		const res = await t.call('search_jobs', { limit: 2, fromDate: at, toDate: at }, pro);
		expect(res.data.data.jobs.map((j: { uid: string }) => j.uid)).toEqual([b.uid, a.uid]);
		const all = (await t.call('search_jobs', { limit: 10_000 }, pro)).data.data.jobs as { createdAt: string }[];
		const times = all.map((j) => Date.parse(j.createdAt));
		expect(times).toEqual([...times].sort((x, y) => y - x));
	});

	it('returns 100 rows when no limit is given', async () => {
		const res = await t.call('search_jobs', {}, pro);
		expect(res.data.data.jobs).toHaveLength(100);
		expect(res.data.data.total).toBeGreaterThan(100);
	});

	it('accepts searchPeriod in the short and the long form with the same result', async () => {
		const short = await t.call('search_jobs', { searchPeriod: '24h', limit: 10_000 }, pro);
		const long = await t.call('search_jobs', { searchPeriod: '24 hours', limit: 10_000 }, pro);
		expect(short.status).toBe(200);
		expect(long.data.data.total).toBe(short.data.data.total);
		expect(short.data.data.total).toBeLessThan(200);
	});

	it('returns the full job with its details for get_job', async () => {
		const uid = (await t.call('search_jobs', { limit: 1 }, pro)).data.data.jobs[0].uid;
		const res = await t.call('get_job', { jobUid: uid }, pro);
		expect(res.status).toBe(200);
		expect(res.data.data).toMatchObject({ uid, description: expect.any(String), skills: expect.any(Array), budget: expect.any(Object), applicationCost: expect.any(Number) });
		expect(res.data.data.client.stats).toBeDefined();
		expect(res.data.usage.consumedMicrocents).toBe(GET_JOB);
		const withHistory = await t.call('get_job', { jobUid: uid, withClientHistory: true }, pro);
		expect(Array.isArray(withHistory.data.data.clientHistory)).toBe(true);
	});

	it('returns stable client activity and history for the same uid', async () => {
		const uid = (await t.call('search_jobs', { limit: 1 }, pro)).data.data.jobs[0].uid;
		const activity = await t.call('get_client_activity', { jobUid: uid }, pro);
		expect(Object.keys(activity.data.data).sort()).toEqual(
			['invitationsSent', 'jobUid', 'lastBuyerActivity', 'totalApplicants', 'totalInvitedToInterview', 'unansweredInvites'].sort(),
		);
		expect(activity.data.usage.consumedMicrocents).toBe(PREMIUM_RESULT);
		const history = await t.call('get_client_history', { jobUid: uid }, pro);
		expect(history.data.data.jobUid).toBe(uid);
		for (const item of history.data.data.clientHistory) {
			expect(Object.keys(item).sort()).toEqual(
				['endedAt', 'feedbackToClient', 'feedbackToFreelancer', 'freelancerName', 'startedAt', 'title', 'totalCharged'].sort(),
			);
		}
		expect((await t.call('get_client_history', { jobUid: uid }, pro)).data.data).toEqual(history.data.data);
	});
});

describe('400 validation_error', () => {
	it('refuses a malformed JSON body', async () => {
		const res = await t.call('search_jobs', '{"limit": ', pro);
		expect(res.status).toBe(400);
		expect(res.data.error_code).toBe('validation_error');
	});

	it('refuses a body that is not JSON by its Content-Type', async () => {
		const res = await t.call('search_jobs', 'limit=5', pro, { 'content-type': 'text/plain' });
		expect(res.status).toBe(400);
		expect(res.data.error_code).toBe('validation_error');
		expect(res.data.error).toMatch(/Content-Type/);
		const form = await t.call('search_jobs', 'limit=5', pro, { 'content-type': 'application/x-www-form-urlencoded' });
		expect(form.status).toBe(400);
		expect(form.data.error_code).toBe('validation_error');
	});

	it('names a missing required field', async () => {
		const res = await t.call('get_job', {}, pro);
		expect(res.status).toBe(400);
		expect(res.data.error).toMatch(/jobUid is required/);
	});

	it('names an invalid jobUid', async () => {
		const res = await t.call('get_job', { jobUid: '12ab' }, pro);
		expect(res.status).toBe(400);
		expect(res.data.error).toMatch(/jobUid/);
	});

	it('names the flat dotted key of a wrongly typed filter and says what is wrong', async () => {
		const res = await t.call('search_jobs', { 'budget.hourlyRate.min': 25 }, pro);
		expect(res.status).toBe(400);
		expect(res.data.error).toContain('budget.hourlyRate.min');
		expect(res.data.error).toMatch(/US dollars/);
	});

	it('names an unknown key instead of silently widening a paid search, and suggests the right one', async () => {
		const res = await t.call('search_jobs', { 'budget.hourlyRate.mn': '25' }, pro);
		expect(res.status).toBe(400);
		expect(res.data.error).toContain('budget.hourlyRate.mn');
		expect(res.data.error).toContain('did you mean "budget.hourlyRate.min"');
	});

	it.each(FILTERS.filter((f) => f.type === 'choice' || f.type === 'choiceList').map((f) => f.key))('refuses a value outside the enum of %s', async (key) => {
		const spec = FILTERS.find((f) => f.key === key)!;
		const res = await t.call('search_jobs', { [key]: spec.type === 'choice' ? 'NOPE' : ['NOPE'] }, pro);
		expect(res.status).toBe(400);
		expect(res.data.error).toContain(key);
	});

	it('costs nothing', async () => {
		const before = t.server.admin.balance('pro').totalMicrocents;
		await t.call('search_jobs', { limit: 0 }, pro);
		expect(t.server.admin.balance('pro').totalMicrocents).toBe(before);
	});
});

describe('401 invalid_key', () => {
	const cases: [string, Record<string, string>][] = [
		['a missing Authorization header', {}],
		['a header that is not Bearer', { authorization: 'Basic Zm9vOmJhcg==' }],
		['a malformed key', { authorization: 'Bearer not-a-key' }],
		['an unknown well-formed key', { authorization: 'Bearer gm_dGhpc2lzYW5leGFtcGxla2V5' }],
	];
	it.each(cases)('refuses %s', async (_, headers) => {
		const res = await t.http.post('/v1/search_jobs', {}, { headers: { 'content-type': 'application/json', ...headers } });
		expect(res.status).toBe(401);
		expect(res.data).toEqual({ error: expect.any(String), error_code: 'invalid_key' });
	});

	it('refuses a revoked key on its very next request, and the key never appears in the answer', async () => {
		const key = await t.server.admin.issueKey('pro');
		expect((await t.call('search_jobs', { limit: 1 }, key)).status).toBe(200);
		await t.server.admin.revokeKey(key);
		const res = await t.call('search_jobs', { limit: 1 }, key);
		expect(res.status).toBe(401);
		expect(res.data.error_code).toBe('invalid_key');
		expect(JSON.stringify(res.data)).not.toContain(key);
	});

	it('refuses a key listed as revoked in the seed', async () => {
		const revoked = 'gm_cmV2b2tlZC1rZXktZm9yLXRlc3Rz';
		const other = await startTestServer({ jobs: 5, accounts: [{ id: 'x', plan: 'pro', revokedKeys: [revoked] }] });
		try {
			expect((await other.call('search_jobs', {}, revoked)).status).toBe(401);
		} finally {
			await other.server.close();
		}
	});
});

describe('402 insufficient_credits', () => {
	it('refuses only when pool and packs are both empty, with the extra fields', async () => {
		const { id, key } = await t.server.admin.createAccount({ plan: 'pro', poolMicrocents: 0, packMicrocents: 0 });
		const res = await t.call('search_jobs', { limit: 5 }, key);
		expect(res.status).toBe(402);
		expect(res.data).toEqual({
			error: expect.any(String),
			error_code: 'insufficient_credits',
			message: expect.any(String),
			neededMicrocents: 5 * SEARCH_ROW,
			availableMicrocents: 0,
			upgradeUrl: expect.stringMatching(/^https:\/\//),
			hint: expect.any(String),
		});
		expect(t.server.admin.balance(id).totalMicrocents).toBe(0);
	});

	it('spends the pool first, then packs, and never goes below zero', async () => {
		const { id, key } = await t.server.admin.createAccount({ plan: 'pro', poolMicrocents: GET_JOB / 2, packMicrocents: GET_JOB });
		const uid = t.server.admin.visibleJobs()[0].uid;
		const first = await t.call('get_job', { jobUid: uid }, key);
		expect(first.data.usage).toEqual({ consumedMicrocents: GET_JOB, remainingMicrocents: GET_JOB / 2 });
		expect(t.server.admin.balance(id)).toEqual({ poolMicrocents: 0, packMicrocents: GET_JOB / 2, totalMicrocents: GET_JOB / 2 });
		const second = await t.call('get_job', { jobUid: uid }, key);
		expect(second.status).toBe(200);
		expect(second.data.usage).toEqual({ consumedMicrocents: GET_JOB / 2, remainingMicrocents: 0 });
		const third = await t.call('get_job', { jobUid: uid }, key);
		expect(third.status).toBe(402);
		expect(third.data.neededMicrocents).toBe(GET_JOB);
	});

	it('charges nothing for a search that returns no rows', async () => {
		const { key } = await t.server.admin.createAccount({ plan: 'pro', poolMicrocents: USD });
		const res = await t.call('search_jobs', { 'includeKeywords.keywords': ['no-such-word-anywhere'] }, key);
		expect(res.data.usage).toEqual({ consumedMicrocents: 0, remainingMicrocents: USD });
	});

	it('asks for at least one row when an empty account searches for nothing', async () => {
		const { key } = await t.server.admin.createAccount({ plan: 'pro', poolMicrocents: 0 });
		const res = await t.call('search_jobs', { 'includeKeywords.keywords': ['no-such-word-anywhere'] }, key);
		expect(res.status).toBe(402);
		expect(res.data.neededMicrocents).toBe(SEARCH_ROW);
	});
});

describe('403 addon_forbidden', () => {
	it.each([
		['get_client_activity', {}],
		['get_client_history', {}],
		['get_job', { withClientHistory: true }],
	])('refuses %s %j on the free plan and serves it on pro', async (tool, extra) => {
		const uid = t.server.admin.visibleJobs()[0].uid;
		const before = t.server.admin.balance('free').totalMicrocents;
		const res = await t.call(tool, { jobUid: uid, ...extra }, free);
		expect(res.status).toBe(403);
		expect(res.data.error_code).toBe('addon_forbidden');
		expect(t.server.admin.balance('free').totalMicrocents).toBe(before);
		expect((await t.call(tool, { jobUid: uid, ...extra }, pro)).status).toBe(200);
	});
});

describe('404 not_found', () => {
	it('answers a well-formed uid that does not exist', async () => {
		const res = await t.call('get_job', { jobUid: '1' }, pro);
		expect(res.status).toBe(404);
		expect(res.data.error_code).toBe('not_found');
	});

	it('answers an unknown tool', async () => {
		const res = await t.call('search_everything', {}, pro);
		expect(res.status).toBe(404);
		expect(res.data.error_code).toBe('not_found');
	});
});

describe('405 method_not_allowed', () => {
	it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('answers %s with Allow: POST', async (method) => {
		const res = await t.http.request({ url: '/v1/search_jobs', method, headers: { authorization: `Bearer ${pro}` } });
		expect(res.status).toBe(405);
		expect(res.headers.allow).toBe('POST');
		expect(res.data.error_code).toBe('method_not_allowed');
	});
});

describe('413 payload_too_large', () => {
	it('refuses a body over 10 MiB announced by Content-Length', async () => {
		const body = JSON.stringify({ 'includeKeywords.keywords': ['x'.repeat(10 * 1024 * 1024)] });
		const res = await t.call('search_jobs', body, pro);
		expect(res.status).toBe(413);
		expect(res.data).toEqual({ error: expect.any(String), error_code: 'payload_too_large' });
	});

	it('answers a body just under 10 MiB on its merits', async () => {
		const padding = 'x'.repeat(10 * 1024 * 1024 - 100);
		const res = await t.call('search_jobs', JSON.stringify({ padding }), pro);
		expect(res.status).toBe(400);
		expect(res.data.error).toContain('padding');
	});

	it('refuses a chunked body while it streams in, before the client has finished sending', async () => {
		const url = new URL(`${t.server.url}/v1/search_jobs`);
		const status = await new Promise<number>((resolve, reject) => {
			const req = http.request(
				{ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${pro}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
				(res) => {
					res.resume();
					resolve(res.statusCode!);
				},
			);
			req.on('error', (error) => (error as NodeJS.ErrnoException).code === 'EPIPE' || (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error));
			const chunk = Buffer.alloc(1024 * 1024, 'x');
			// 11 MiB sent, never ended: only a limit enforced on the stream can answer now.
			req.write('{"padding":"');
			for (let i = 0; i < 11; i++) req.write(chunk);
		});
		expect(status).toBe(413);
	});
});

describe('429 rate_limited', () => {
	it('refuses past the plan limit with Retry-After, refuses again sooner, and serves at retryAfterMs', async () => {
		const key = 'gm_ZnJlZS1wbGFuLWtleS1mb3ItdGhlLWxpbWl0';
		const other = await startTestServer({ jobs: 5, accounts: [{ id: 'f', plan: 'free', keys: [key] }] });
		try {
			for (let i = 0; i < 10; i++) {
				expect((await other.call('search_jobs', { limit: 1 }, key)).status).toBe(200);
				other.clock.advance(1000);
			}
			const refused = await other.call('search_jobs', { limit: 1 }, key);
			expect(refused.status).toBe(429);
			expect(refused.data).toEqual({ error: expect.any(String), error_code: 'rate_limited', retryAfterMs: 50_000 });
			expect(refused.headers['retry-after']).toBe('50');
			other.clock.advance(49_999);
			const sooner = await other.call('search_jobs', { limit: 1 }, key);
			expect(sooner.status).toBe(429);
			expect(sooner.data.retryAfterMs).toBe(1);
			expect(sooner.headers['retry-after']).toBe('1');
			other.clock.advance(1);
			expect((await other.call('search_jobs', { limit: 1 }, key)).status).toBe(200);
		} finally {
			await other.server.close();
		}
	});

	it('rounds Retry-After up to whole seconds', async () => {
		const other = await startTestServer({ jobs: 5, rateLimits: { pro: { requests: 1, windowMs: 1500 } } });
		try {
			const key = other.server.admin.demoKeys.pro;
			await other.call('search_jobs', { limit: 1 }, key);
			const refused = await other.call('search_jobs', { limit: 1 }, key);
			expect(refused.data.retryAfterMs).toBe(1500);
			expect(refused.headers['retry-after']).toBe('2');
		} finally {
			await other.server.close();
		}
	});

	it('counts per key and does not charge a refused call', async () => {
		const other = await startTestServer({ jobs: 5, accounts: [{ id: 'p', plan: 'pro' }], rateLimits: { pro: { requests: 2, windowMs: 60_000 } } });
		try {
			const a = await other.server.admin.issueKey('p');
			const b = await other.server.admin.issueKey('p');
			await other.call('search_jobs', { limit: 1 }, a);
			await other.call('search_jobs', { limit: 1 }, a);
			const before = other.server.admin.balance('p').totalMicrocents;
			expect((await other.call('search_jobs', { limit: 1 }, a)).status).toBe(429);
			expect(other.server.admin.balance('p').totalMicrocents).toBe(before);
			expect((await other.call('search_jobs', { limit: 1 }, b)).status).toBe(200);
		} finally {
			await other.server.close();
		}
	});
});

describe('500 runtime_error', () => {
	it('answers with a generic message and nothing internal', async () => {
		const other = await startTestServer({ jobs: 5, faults: true });
		try {
			const res = await other.call('search_jobs', {}, other.server.admin.demoKeys.pro, { 'x-fault': '500' });
			expect(res.status).toBe(500);
			expect(res.data).toEqual({ error: expect.any(String), error_code: 'runtime_error' });
			expect(res.data.error).not.toMatch(/at |\.ts|Error:/);
		} finally {
			await other.server.close();
		}
	});
});

describe('limits', () => {
	it('serves up to 10,000 rows in one call and refuses more, naming limit', async () => {
		const big = await startTestServer({ jobs: 10_050, accounts: [{ id: 'e', plan: 'enterprise', keys: [] }] });
		try {
			const key = await big.server.admin.issueKey('e');
			const ok = await big.call('search_jobs', { limit: 10_000 }, key);
			expect(ok.data.data.jobs).toHaveLength(10_000);
			expect(ok.data.data.total).toBe(10_050);
			const over = await big.call('search_jobs', { limit: 10_001 }, key);
			expect(over.status).toBe(400);
			expect(over.data.error).toContain('(limit)');
		} finally {
			await big.server.close();
		}
	});
});
