// The trigger spaces its requests and waits 429s out with n8n-workflow's sleep: here a wait moves
// the faked clock instead of passing in real time.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async (ms: number) => {
		jest.setSystemTime(Date.now() + ms);
		await new Promise((resolve) => setImmediate(resolve));
	},
}));

import { startServer, type RunningServer } from '../../server';
import { createDurablePoller, type DurablePoller } from '../harness/durablePoll';
import { startRowLedger, type RowLedger } from '../harness/rowLedger';
import { DAY_START, FAKE_DATE_ONLY, HOUR, MINUTE, ROW_PRICE_MICROCENTS } from './scriptedDay';

// n8n 2.41's durable scheduler runs each poll on a snapshot of the trigger's state and commits it
// with the execution, and only while the poll holds its lease: a poll abandoned at the timeout,
// or cut off by a restart, leaves the state as it was before it, and what it emitted never runs.
// Here each poll runs inside real n8n-core's PollContext against the reference server, on a copy
// of the committed state; some polls' copies (and items) are thrown away.

beforeAll(() => jest.useFakeTimers(FAKE_DATE_ONLY));
afterAll(() => jest.useRealTimers());

const LIVE = { postingsPerHour: 60, minLagMs: MINUTE, maxLagMs: 15 * MINUTE };
/** n8n 2.41's budget for a poll in the durable scheduler (its 45 s timeout less a margin). */
const DURABLE_POLL_BUDGET_MS = 36_000;

let server: RunningServer | undefined;
const ledgers: RowLedger[] = [];
afterEach(async () => {
	for (const ledger of ledgers.splice(0)) await ledger.close();
	await server?.close();
	server = undefined;
});

interface Subject {
	poller: DurablePoller;
	accountId: string;
	/** Every row the trigger bought, by job uid (a proxy between it and the server). */
	ledger: RowLedger;
}

async function startSubjects(names: string[]): Promise<Record<string, Subject>> {
	jest.setSystemTime(DAY_START);
	server = await startServer({ clock: { now: () => Date.now() }, jobs: 40, seed: 2411, live: LIVE });
	const subjects: Record<string, Subject> = {};
	for (const name of names) {
		const account = await server.admin.createAccount({ plan: 'pro', poolMicrocents: 10 ** 13 });
		const ledger = await startRowLedger(server.url);
		ledgers.push(ledger);
		const poller = createDurablePoller({ credentials: { apiKey: account.key, baseUrl: ledger.url }, pollBudgetMs: DURABLE_POLL_BUDGET_MS });
		subjects[name] = { poller, accountId: account.id, ledger };
	}
	return subjects;
}

const rowsPaid = (subject: Subject, startBalance: number) => (startBalance - server!.admin.balance(subject.accountId).totalMicrocents) / ROW_PRICE_MICROCENTS;
const uidsOf = (items: { json: { uid?: unknown } }[]) => items.map((item) => String(item.json.uid));
const duplicatesOf = (uids: string[]) => uids.filter((uid, i) => uids.indexOf(uid) !== i);

describe('a poll whose state n8n does not commit', () => {
	it('run again at once, sends what the thrown-away poll would have sent and pays for those rows at most once more', async () => {
		const { subject } = await startSubjects(['subject']);
		expect((await subject.poller.poll({ commit: true })).error).toBeUndefined();
		jest.setSystemTime(DAY_START + 40 * MINUTE);
		const start = server!.admin.balance(subject.accountId).totalMicrocents;
		const cursor = JSON.stringify(subject.poller.cursor());

		const thrownAway = await subject.poller.poll({ commit: false });
		const paidByThrownAway = rowsPaid(subject, start);
		expect(thrownAway.error).toBeUndefined();
		expect(thrownAway.items.length).toBeGreaterThan(5);
		expect(JSON.stringify(subject.poller.cursor())).toBe(cursor);

		// Again from the same moment, as n8n's next try would find the index (the clock moved by
		// the thrown-away poll's waits only).
		jest.setSystemTime(DAY_START + 40 * MINUTE);
		const retried = await subject.poller.poll({ commit: true });
		expect(retried.error).toBeUndefined();
		expect(uidsOf(retried.items).sort()).toEqual(uidsOf(thrownAway.items).sort());
		expect(rowsPaid(subject, start) - paidByThrownAway).toBeLessThanOrEqual(paidByThrownAway);
	});

	it('loses nothing, sends nothing twice and buys no row more than once more than an uninterrupted trigger, over hours of polls with some thrown away', async () => {
		// Two triggers on one index at the same moments: one whose every poll is committed, and one
		// whose every third poll is thrown away (its next poll comes at the next tick, as in n8n).
		// Then half an hour of polls, all committed, lets the second catch up.
		const subjects = await startSubjects(['committed', 'interrupted']);
		const delivered: Record<string, string[]> = { committed: [], interrupted: [] };
		let thrownAwayItems = 0;
		let deliveredByCommittedInTime: string[] = [];

		const endMs = DAY_START + 4 * HOUR;
		const catchUpMs = endMs + 30 * MINUTE;
		for (let tick = 0, nowMs = DAY_START; nowMs <= catchUpMs; tick++, nowMs += 5 * MINUTE) {
			// Both poll at the same moment of the index; a poll's own waits move the clock on.
			jest.setSystemTime(nowMs);
			const committed = await subjects.committed.poller.poll({ commit: true });
			expect(committed.error).toBeUndefined();
			delivered.committed.push(...uidsOf(committed.items));
			if (nowMs <= endMs) deliveredByCommittedInTime = [...delivered.committed];

			jest.setSystemTime(nowMs);
			const commit = nowMs > endMs || tick === 0 || tick % 3 !== 0;
			const interrupted = await subjects.interrupted.poller.poll({ commit });
			expect(interrupted.error).toBeUndefined();
			if (commit) {
				delivered.interrupted.push(...uidsOf(interrupted.items));
			} else {
				thrownAwayItems += interrupted.items.length;
			}
		}

		expect(deliveredByCommittedInTime.length).toBeGreaterThan(150);
		expect(thrownAwayItems).toBeGreaterThan(20);
		expect(duplicatesOf(delivered.committed)).toEqual([]);
		expect(duplicatesOf(delivered.interrupted)).toEqual([]);
		expect(deliveredByCommittedInTime.filter((uid) => !delivered.interrupted.includes(uid))).toEqual([]);
		// "At most once more": no row is bought more often than by the trigger whose every poll
		// counts, plus once, whatever the thrown-away polls bought.
		const committedBought = subjects.committed.ledger.bought();
		const boughtOnceMore = [...subjects.interrupted.ledger.bought()]
			.map(([uid, times]) => ({ uid, times, uninterrupted: committedBought.get(uid) ?? 0 }))
			.filter((row) => row.times > row.uninterrupted);
		expect(boughtOnceMore.filter((row) => row.times > row.uninterrupted + 1)).toEqual([]);
		expect(boughtOnceMore.length).toBeGreaterThan(0);
	});
});
