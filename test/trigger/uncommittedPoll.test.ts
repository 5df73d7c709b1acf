import { startServer, type RunningServer } from '../../server';
import { createDurablePoller, type DurablePoller } from '../harness/durablePoll';
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
/** Jobs first shown this close to the end of a run may still be on their way. */
const SETTLE_MS = 30 * MINUTE;

let server: RunningServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

interface Subject {
	poller: DurablePoller;
	accountId: string;
}

async function startSubjects(names: string[]): Promise<Record<string, Subject>> {
	jest.setSystemTime(DAY_START);
	server = await startServer({ clock: { now: () => Date.now() }, jobs: 40, seed: 2411, live: LIVE });
	const subjects: Record<string, Subject> = {};
	for (const name of names) {
		const account = await server.admin.createAccount({ plan: 'pro', poolMicrocents: 10 ** 13 });
		const poller = createDurablePoller({ credentials: { apiKey: account.key, baseUrl: server.url }, pollBudgetMs: DURABLE_POLL_BUDGET_MS });
		subjects[name] = { poller, accountId: account.id };
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

		const retried = await subject.poller.poll({ commit: true });
		expect(retried.error).toBeUndefined();
		expect(uidsOf(retried.items).sort()).toEqual(uidsOf(thrownAway.items).sort());
		expect(rowsPaid(subject, start) - paidByThrownAway).toBeLessThanOrEqual(paidByThrownAway);
	});

	it('loses nothing and sends nothing twice over hours of polls, some thrown away, paying at most the thrown-away polls’ rows more', async () => {
		// Two triggers on one index at the same moments: one whose every poll is committed, and one
		// whose every third poll is thrown away (its next poll comes at the next tick, as in n8n).
		const subjects = await startSubjects(['committed', 'interrupted']);
		const visibleUids = () => new Set(server!.admin.visibleJobs().map((job) => job.uid));
		const atActivation = visibleUids();
		const firstShownMs = new Map<string, number>();
		const start = Object.fromEntries(Object.entries(subjects).map(([name, s]) => [name, server!.admin.balance(s.accountId).totalMicrocents]));
		const delivered: Record<string, string[]> = { committed: [], interrupted: [] };
		let thrownAwayRows = 0;
		let thrownAwayItems = 0;

		const endMs = DAY_START + 4 * HOUR;
		for (let tick = 0, nowMs = DAY_START; nowMs <= endMs; tick++, nowMs += 5 * MINUTE) {
			jest.setSystemTime(nowMs);
			for (const uid of visibleUids()) if (!atActivation.has(uid) && !firstShownMs.has(uid)) firstShownMs.set(uid, nowMs);
			const committed = await subjects.committed.poller.poll({ commit: true });
			expect(committed.error).toBeUndefined();
			delivered.committed.push(...uidsOf(committed.items));

			const commit = tick === 0 || tick % 3 !== 0;
			const before = server!.admin.balance(subjects.interrupted.accountId).totalMicrocents;
			const interrupted = await subjects.interrupted.poller.poll({ commit });
			expect(interrupted.error).toBeUndefined();
			if (commit) {
				delivered.interrupted.push(...uidsOf(interrupted.items));
			} else {
				thrownAwayRows += (before - server!.admin.balance(subjects.interrupted.accountId).totalMicrocents) / ROW_PRICE_MICROCENTS;
				thrownAwayItems += interrupted.items.length;
			}
		}

		const expected = [...visibleUids()].filter((uid) => (firstShownMs.get(uid) ?? Infinity) <= endMs - SETTLE_MS);
		expect(expected.length).toBeGreaterThan(150);
		expect(thrownAwayItems).toBeGreaterThan(20);
		for (const name of ['committed', 'interrupted']) {
			expect(duplicatesOf(delivered[name])).toEqual([]);
			expect(expected.filter((uid) => !delivered[name].includes(uid))).toEqual([]);
		}
		const committedRows = rowsPaid(subjects.committed, start.committed);
		const interruptedRows = rowsPaid(subjects.interrupted, start.interrupted);
		expect(interruptedRows).toBeLessThanOrEqual(committedRows + thrownAwayRows);
	});
});
