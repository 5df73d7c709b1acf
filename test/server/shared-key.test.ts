import { seededRandom } from '../../server/random';
import { startTestServer, type TestServer } from './helpers';

const KEY = 'gm_b25lLWZyZWUta2V5LXNoYXJlZC1ieS10aHJlZQ';
const WINDOW_MS = 60_000;
const FREE_PER_MINUTE = 10;

interface Answer {
	client: number;
	at: number;
	served: boolean;
	retryAfterMs?: number;
	retryAfterHeader?: string;
}

/** One search as a client sends it: two over REST, one over MCP, all with the same key. */
async function send(t: TestServer, client: number): Promise<Omit<Answer, 'client' | 'at'>> {
	if (client < 2) {
		const res = await t.call('search_jobs', { limit: 1 }, KEY);
		if (res.status === 200) return { served: true };
		expect(res.status).toBe(429);
		expect(res.data.error_code).toBe('rate_limited');
		return { served: false, retryAfterMs: res.data.retryAfterMs, retryAfterHeader: res.headers['retry-after'] };
	}
	const res = await t.http.post(
		'/mcp',
		{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_jobs', arguments: { limit: 1 } } },
		{ headers: { authorization: `Bearer ${KEY}` } },
	);
	const result = res.data.result;
	if (!result.isError) return { served: true };
	expect(result.structuredContent.error_code).toBe('rate_limited');
	return { served: false, retryAfterMs: result.structuredContent.retryAfterMs };
}

describe('a Free key shared by three clients', () => {
	let t: TestServer;
	beforeAll(async () => {
		t = await startTestServer({ jobs: 5, accounts: [{ id: 'shared', plan: 'free', keys: [KEY] }] });
	});
	afterAll(() => t.server.close());

	it('serves them at most 10 requests in any 60 s together, and each 429 asks for exactly the wait until the window frees a slot', async () => {
		const random = seededRandom(20261120);
		const start = t.clock.now();
		// Each client wants a search every 0 to 15 s (about 12 a minute each, three times what the key allows) and,
		// when refused, retries exactly when the 429 says.
		const nextAt = [0, 1, 2].map(() => start + Math.floor(random() * 15_000));
		const answers: Answer[] = [];
		while (Math.min(...nextAt) < start + 15 * WINDOW_MS) {
			const client = nextAt.indexOf(Math.min(...nextAt));
			t.clock.set(nextAt[client]);
			const answer = { client, at: t.clock.now(), ...(await send(t, client)) };
			answers.push(answer);
			nextAt[client] = answer.served ? answer.at + Math.floor(random() * 15_000) : answer.at + answer.retryAfterMs!;
		}

		const served = answers.filter((a) => a.served).map((a) => a.at);
		const inWindowEndingAt = (ms: number) => served.filter((s) => s > ms - WINDOW_MS && s <= ms);
		for (const at of served) expect(inWindowEndingAt(at).length).toBeLessThanOrEqual(FREE_PER_MINUTE);
		const refused = answers.filter((a) => !a.served);
		for (const { at, retryAfterMs, retryAfterHeader, client } of refused) {
			// Refused only with a full window, asked to wait until its oldest request leaves it: not a millisecond more or less.
			const window = inWindowEndingAt(at);
			expect(window).toHaveLength(FREE_PER_MINUTE);
			expect(retryAfterMs).toBe(window[0] + WINDOW_MS - at);
			if (client < 2) expect(retryAfterHeader).toBe(String(Math.ceil(retryAfterMs! / 1000)));
		}
		// All three met the shared limit, and the key was used up to it: refusals did not count toward the window.
		expect(new Set(refused.map((a) => a.client))).toEqual(new Set([0, 1, 2]));
		expect(served.length).toBeGreaterThanOrEqual(15 * FREE_PER_MINUTE - 5);
		const log = t.server.admin.callLog('shared');
		expect(log.filter((e) => e.status === 200).map((e) => e.at)).toEqual(served);
		expect(log.filter((e) => e.status === 429)).toHaveLength(refused.length);
		expect(new Set(log.map((e) => e.keyId)).size).toBe(1);
	});
});
