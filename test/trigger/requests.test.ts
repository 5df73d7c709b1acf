import { RequestBudget, freshLedger, windowCap, type RequestLedger } from '../../nodes/JobSearch/trigger/requests';
import { RATE_FLOOR_SHARE, WINDOW_REQUEST_CAP } from '../../nodes/JobSearch/trigger/requests';
import { BUCKET_MINUTES, RATE_LIMITED_SHARE, RATE_RECOVERY_PER_MINUTE } from '../../nodes/JobSearch/trigger/tunables';
import { busiestMinute } from './drive';

const T0 = Date.UTC(2026, 10, 20, 8, 0, 0);
const MINUTE = 60_000;

/** A budget on a hand-moved clock whose waits move it; `sent` records when each request went. */
function budgetAt(ledger: RequestLedger, requestsPerMinute: number, pollTimeMs: number, clock = { ms: T0 }) {
	const sent: number[] = [];
	const budget = new RequestBudget(
		ledger,
		{ requestsPerMinute },
		{ now: () => clock.ms, sleep: async (ms) => void (clock.ms += ms) },
		clock.ms + pollTimeMs,
	);
	const take = async () => {
		const ok = await budget.take();
		if (ok) sent.push(clock.ms);
		return ok;
	};
	return { budget, clock, sent, take };
}

describe('the request budget', () => {
	it('starts a new trigger with a window\'s worth of requests, not an hour\'s', () => {
		expect(freshLedger(T0, { requestsPerMinute: 5 }).tokens).toBe(WINDOW_REQUEST_CAP);
		expect(windowCap({ requestsPerMinute: 5 })).toBe(10);
		expect(windowCap({ requestsPerMinute: 60 })).toBe(60);
	});

	// The transport refuses a request past the poll's deadline, and the trigger took that refusal for a fault of the
	// service: it logged one and paused every search.
	it('sends no request at or past the poll\'s deadline, also where one could go at once', async () => {
		const { take, clock, sent } = budgetAt(freshLedger(T0, { requestsPerMinute: 5 }), 5, 30_000);
		clock.ms = T0 + 30_000;
		expect(await take()).toBe(false);
		expect(sent).toEqual([]);
	});

	it('spaces its requests so that no 60 seconds see more than 10, however many it holds', async () => {
		const full = { ...freshLedger(T0, { requestsPerMinute: 5 }), tokens: 75 };
		const { take, sent } = budgetAt(full, 5, 10 * MINUTE);
		while (await take());
		expect(sent.length).toBeGreaterThan(40);
		expect(busiestMinute(sent)).toBe(10);
		for (let i = 1; i < sent.length; i++) expect(sent[i] - sent[i - 1]).toBeGreaterThanOrEqual(6_000);
		// A second to spare: the eleventh may reach the service up to a second sooner than the first did and still be in a new minute.
		for (let i = 10; i < sent.length; i++) expect(sent[i] - sent[i - 10]).toBeGreaterThanOrEqual(61_000);
	});

	it('gives a free place in the rate window to one of two requests that wait for it together (the searches\' activation reads)', async () => {
		const full = Array.from({ length: 10 }, (_, i) => T0 - 50_000 + i * 1_000);
		const clock = { ms: T0 };
		const timers: { atMs: number; resolve: () => void }[] = [];
		const sleep = async (ms: number) => await new Promise<void>((resolve) => timers.push({ atMs: clock.ms + ms, resolve }));
		const budget = new RequestBudget({ ...freshLedger(T0, { requestsPerMinute: 5 }), sentMs: full }, { requestsPerMinute: 5 }, { now: () => clock.ms, sleep }, T0 + 5 * MINUTE);
		const sent: number[] = [];
		const both = Promise.all([1, 2].map(async () => (await budget.take(true)) && sent.push(clock.ms)));
		while (sent.length < 2) {
			await new Promise((resolve) => setImmediate(resolve));
			timers.sort((a, b) => a.atMs - b.atMs);
			const next = timers.shift();
			if (!next) break;
			clock.ms = Math.max(clock.ms, next.atMs);
			next.resolve();
		}
		await both;
		expect(sent).toHaveLength(2);
		expect(busiestMinute([...full, ...sent])).toBe(10);
	});

	it('keeps the second to spare across polls: ten requests of the last 61 seconds still hold the next one back', async () => {
		const lastMinute = Array.from({ length: 10 }, (_, i) => T0 - 60_500 + i * 6_000);
		const { take, sent } = budgetAt({ ...freshLedger(T0, { requestsPerMinute: 5 }), sentMs: lastMinute }, 5, MINUTE);
		expect(await take()).toBe(true);
		expect(sent).toEqual([T0 + 500]);
	});

	it('counts the last requests of a state it could not read in the rate window, in whatever order they were kept, and none dated after now', async () => {
		// Ten requests in the last 40 seconds, stored out of order, and one dated an hour ahead (a damaged state, a clock that jumped back).
		const lastMinute = Array.from({ length: 10 }, (_, i) => T0 - 40_000 + i * 4_000).reverse();
		const { take, sent } = budgetAt(freshLedger(T0, { requestsPerMinute: 5 }, [T0 + 60 * MINUTE, ...lastMinute]), 5, 2 * MINUTE);
		expect(await take()).toBe(true);
		// The first place in the window frees a minute and a second (the margin) after the oldest of the ten.
		expect(sent).toEqual([T0 - 40_000 + 61_000]);
	});

	it('spends on average no more than Requests per Minute, with at most BUCKET_MINUTES of it saved up', async () => {
		const ledger = { ...freshLedger(T0 - 10 * 60 * MINUTE, { requestsPerMinute: 5 }), tokens: 0 };
		const { budget } = budgetAt(ledger, 5, MINUTE);
		expect(budget.available()).toBe(5 * BUCKET_MINUTES);
	});

	it('sends nothing in a poll whose time ends before the next request\'s turn', async () => {
		const ledger = { ...freshLedger(T0, { requestsPerMinute: 5 }), sentMs: [T0 - 1_000] };
		const { take, sent } = budgetAt(ledger, 5, 4_000);
		expect(await take()).toBe(false);
		expect(sent).toEqual([]);
	});

	it('waits out a pause the service asked for when it ends within the poll, and not otherwise', async () => {
		const paused = { ...freshLedger(T0, { requestsPerMinute: 5 }), pausedUntilMs: T0 + 20_000 };
		const inTime = budgetAt(paused, 5, 30_000);
		expect(await inTime.take()).toBe(true);
		expect(inTime.sent).toEqual([T0 + 20_000]);
		expect(inTime.budget.waitedMs).toBe(20_000);
		const tooLate = budgetAt(paused, 5, 20_000);
		expect(await tooLate.take()).toBe(false);
	});

	it('yields on a 429: pauses as asked and lowers its rate once per poll, down to a floor, and recovers by the minute', async () => {
		const { budget, clock } = budgetAt(freshLedger(T0, { requestsPerMinute: 5 }), 5, MINUTE);
		budget.rateLimited(15_000);
		budget.rateLimited(15_000);
		const after = budget.toLedger();
		expect(after.share).toBe(RATE_LIMITED_SHARE);
		expect(after.pausedUntilMs).toBe(T0 + 15_000);
		let ledger = after;
		for (let poll = 0; poll < 20; poll++) {
			const next = new RequestBudget(ledger, { requestsPerMinute: 5 }, { now: () => clock.ms, sleep: async () => undefined }, clock.ms + MINUTE);
			next.rateLimited(1_000);
			ledger = next.toLedger();
		}
		expect(ledger.share).toBe(RATE_FLOOR_SHARE);
		clock.ms += 3 * MINUTE;
		const recovered = new RequestBudget(ledger, { requestsPerMinute: 5 }, { now: () => clock.ms, sleep: async () => undefined }, clock.ms + MINUTE);
		expect(recovered.toLedger().share).toBeCloseTo(RATE_FLOOR_SHARE + 3 * RATE_RECOVERY_PER_MINUTE);
	});

	it('earns tokens at its lowered rate after a 429', () => {
		const ledger = { ...freshLedger(T0, { requestsPerMinute: 10 }), tokens: 0, share: 0.5 };
		const clock = { ms: T0 + MINUTE };
		const budget = new RequestBudget(ledger, { requestsPerMinute: 10 }, { now: () => clock.ms, sleep: async () => undefined }, clock.ms + MINUTE);
		// A minute at a share rising from 0.5 by 0.1: between 5 and 6 tokens, not 10.
		expect(budget.available()).toBeGreaterThanOrEqual(5);
		expect(budget.available()).toBeLessThan(7);
	});
});
