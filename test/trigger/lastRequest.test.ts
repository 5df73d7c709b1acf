// The trigger spaces its requests with n8n-workflow's sleep: here a wait moves the faked clock
// instead of passing in real time, so a poll's requests land at known moments of its time.
import { recordingSleep, waitsMoveDate } from '../support/sleeps';
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import { createServer, request } from 'http';

import { startServer, type RunningServer } from '../../server';
import { POLL_TIME_SHARE } from '../../nodes/JobSearch/trigger/tunables';
import { createDurablePoller } from '../harness/durablePoll';
import { listenOnLoopback } from '../support/hosts';
import { DAY_START, FAKE_DATE_ONLY, MINUTE } from './scriptedDay';

beforeAll(() => {
	jest.useFakeTimers(FAKE_DATE_ONLY);
	waitsMoveDate();
});
afterAll(() => jest.useRealTimers());

/** Real milliseconds each answer takes: far longer than nothing, far shorter than any poll's time. */
const ANSWER_TAKES_MS = 40;

interface Sent {
	atMs: number;
	answered: boolean;
}

/** A proxy that answers every request ANSWER_TAKES_MS late and notes when (on the faked clock) each came, and whether its answer got through. */
async function startSlowLink(target: string, options: { answer500From?: number } = {}) {
	const upstream = new URL(target);
	const sent: Sent[] = [];
	const server = createServer((req, res) => {
		const entry: Sent = { atMs: Date.now(), answered: false };
		if (req.url?.startsWith('/v1/')) sent.push(entry);
		if (options.answer500From !== undefined && sent.length >= options.answer500From) {
			res.writeHead(500, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ error: 'Internal error', error_code: 'internal_error' }), () => (entry.answered = true));
			return;
		}
		const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
			const chunks: Buffer[] = [];
			answer.on('data', (chunk: Buffer) => chunks.push(chunk));
			answer.on('end', () =>
				setTimeout(() => {
					if (res.destroyed) return;
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					res.end(Buffer.concat(chunks), () => (entry.answered = true));
				}, ANSWER_TAKES_MS),
			);
		});
		out.on('error', () => res.destroy());
		req.pipe(out);
	});
	return { ...(await listenOnLoopback(server)), sent };
}

let server: RunningServer | undefined;
let link: Awaited<ReturnType<typeof startSlowLink>> | undefined;
afterEach(async () => {
	await link?.close();
	await server?.close();
	link = undefined;
});

/** A budget whose request share ends 0.8 ms after the fifth turn of the rate window (6 s apart). */
const BUDGET_MS = 30_001;

/** One poll of a busy search an hour in, through the slow link, on that budget. */
async function pollThroughSlowLink(options: { answer500From?: number } = {}) {
	jest.setSystemTime(DAY_START);
	server = await startServer({ clock: { now: () => Date.now() }, jobs: 40, seed: 7, live: { postingsPerHour: 3_000, minLagMs: MINUTE, maxLagMs: 2 * MINUTE } });
	const account = await server.admin.createAccount({ plan: 'pro', poolMicrocents: 10 ** 13 });
	link = await startSlowLink(server.url, options);
	jest.setSystemTime(DAY_START + 60 * MINUTE);
	const poller = createDurablePoller({ credentials: { apiKey: account.key, baseUrl: link.url }, pollBudgetMs: BUDGET_MS });
	const startMs = Date.now();
	const outcome = await poller.poll({ commit: true });
	return { poller, outcome, sent: link.sent, lastRequestByMs: startMs + BUDGET_MS * POLL_TIME_SHARE };
}

describe('the last request of a poll', () => {
	it('started just before the poll stops starting requests, is answered in the rest of the poll\'s time, not cut off', async () => {
		const { poller, outcome, sent, lastRequestByMs } = await pollThroughSlowLink();
		// The poll stops starting requests at a share of its time; its last one starts under a
		// millisecond before that moment (the rate window's turns fall there).
		expect(lastRequestByMs - sent[sent.length - 1].atMs).toBeLessThan(1);
		expect(outcome.error).toBeUndefined();
		expect(sent.map((s) => s.answered)).toEqual(sent.map(() => true));
		expect(poller.logs.filter((line) => line.level !== 'info')).toEqual([]);
		expect(poller.logs[0].message).toMatch(new RegExp(`in ${sent.length} requests`));
	});

	it('that meets a 500 is not retried after a wait that would end past the moment no request may start', async () => {
		const { outcome, sent, lastRequestByMs } = await pollThroughSlowLink({ answer500From: 5 });
		expect(outcome.error).toBeUndefined();
		expect(sent).toHaveLength(5);
		// The backoff after the 500 would end past the poll's last moment for a request: no wait.
		expect(Date.now()).toBeLessThanOrEqual(lastRequestByMs);
	});
});
