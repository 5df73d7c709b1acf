// The trigger spaces its requests and waits 429s out with n8n-workflow's sleep: here a wait moves
// the faked clock instead of passing in real time.
import { recordingSleep, waitsMoveDate } from '../support/sleeps';
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import type { INodeParameters } from 'n8n-workflow';

import { startServer, type RunningServer } from '../../server';
import { createDurablePoller, type DurablePoller } from '../harness/durablePoll';
import { createPoller } from '../harness/poll';
import { startRowLedger, type RowLedger } from '../harness/rowLedger';
import { DAY_START, FAKE_DATE_ONLY, HOUR, MINUTE, ROW_PRICE_MICROCENTS } from './scriptedDay';

// n8n 2.41's durable scheduler runs each poll on a snapshot of the trigger's state and commits it
// with the execution, and only while the poll holds its lease: a poll abandoned at the timeout,
// or cut off by a restart, leaves the state as it was before it, and what it emitted never runs.
// Here each poll runs inside real n8n-core's PollContext against the reference server, on a copy
// of the committed state; some polls' copies (and items) are thrown away.

beforeAll(() => {
	jest.useFakeTimers(FAKE_DATE_ONLY);
	waitsMoveDate();
});
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

	it('loses nothing, sends nothing twice and pays no more rows than a trigger that skipped the thrown-away polls and those polls, over hours of polls with some thrown away', async () => {
		// Three triggers on one index at the same moments: one whose every poll is committed, one
		// whose every third poll is thrown away (its next poll comes at the next tick, as in n8n),
		// and one that skips those ticks. Then an hour and a half of polls, all committed, lets the
		// second catch up: a job shown late that one trigger found with a young look, the other may
		// find only with its final look.
		const subjects = await startSubjects(['committed', 'interrupted', 'skipping']);
		const delivered: Record<string, string[]> = { committed: [], interrupted: [], skipping: [] };
		let thrownAwayItems = 0;
		let thrownAwayRows = 0;
		const total = (ledger: RowLedger) => [...ledger.bought().values()].reduce((sum, times) => sum + times, 0);
		let deliveredByCommittedInTime: string[] = [];

		const endMs = DAY_START + 4 * HOUR;
		const catchUpMs = endMs + 90 * MINUTE;
		for (let tick = 0, nowMs = DAY_START; nowMs <= catchUpMs; tick++, nowMs += 5 * MINUTE) {
			// Both poll at the same moment of the index; a poll's own waits move the clock on.
			jest.setSystemTime(nowMs);
			const committed = await subjects.committed.poller.poll({ commit: true });
			expect(committed.error).toBeUndefined();
			delivered.committed.push(...uidsOf(committed.items));
			if (nowMs <= endMs) deliveredByCommittedInTime = [...delivered.committed];

			jest.setSystemTime(nowMs);
			const commit = nowMs > endMs || tick === 0 || tick % 3 !== 0;
			const boughtBefore = total(subjects.interrupted.ledger);
			const interrupted = await subjects.interrupted.poller.poll({ commit });
			if (!commit) thrownAwayRows += total(subjects.interrupted.ledger) - boughtBefore;
			expect(interrupted.error).toBeUndefined();
			if (commit) {
				delivered.interrupted.push(...uidsOf(interrupted.items));
			} else {
				thrownAwayItems += interrupted.items.length;
				continue;
			}

			jest.setSystemTime(nowMs);
			const skipping = await subjects.skipping.poller.poll({ commit: true });
			expect(skipping.error).toBeUndefined();
			delivered.skipping.push(...uidsOf(skipping.items));
		}

		expect(deliveredByCommittedInTime.length).toBeGreaterThan(150);
		expect(thrownAwayItems).toBeGreaterThan(20);
		expect(duplicatesOf(delivered.committed)).toEqual([]);
		expect(duplicatesOf(delivered.interrupted)).toEqual([]);
		expect(deliveredByCommittedInTime.filter((uid) => !delivered.interrupted.includes(uid))).toEqual([]);
		// What a thrown-away poll bought is bought again, and nothing more: the requests it spent
		// leave the trigger as far behind as one that never polled then (whose final looks, behind,
		// may read whole and pay more rows than the uninterrupted trigger's).
		expect(thrownAwayRows).toBeGreaterThan(20);
		expect([...delivered.interrupted].sort()).toEqual([...delivered.skipping].sort());
		expect(total(subjects.interrupted.ledger)).toBeLessThanOrEqual(total(subjects.skipping.ledger) + thrownAwayRows);
	});
});

describe("n8n 2.41's durable scheduler, which keeps nothing of the poll that activated the trigger", () => {
	/** What n8n 2.41 gives the activation poll, which runs outside the scheduler. */
	const UNFENCED_BUDGET_MS = 5 * MINUTE;
	const iso = (ms: number) => new Date(ms).toISOString();

	async function published(pollTimes: INodeParameters | INodeParameters[], activationMs: number, timezone = 'UTC') {
		jest.setSystemTime(activationMs);
		server = await startServer({ clock: { now: () => Date.now() }, jobs: 0, seed: 2412 });
		const account = await server.admin.createAccount({ plan: 'pro', poolMicrocents: 10 ** 13 });
		const poller = createDurablePoller({
			credentials: { apiKey: account.key, baseUrl: server.url },
			parameters: { pollTimes: { item: Array.isArray(pollTimes) ? pollTimes : [pollTimes] } },
			pollBudgetMs: DURABLE_POLL_BUDGET_MS,
			timezone,
		});
		return { poller, admin: server.admin, accountId: account.id };
	}

	const friday = (hours: number) => DAY_START + hours * HOUR;
	const TWO_ENTRIES = 'Poll Times has 2 entries, and this n8n polls each on its own: new jobs could be sent twice';
	/** Poll Times; when published; when the first scheduled poll comes; the moment Poll Times named before it; the workflow's time zone (2026-11-20 is a Friday); the scheduled polls' budget. */
	const cases: [string, INodeParameters, number, number, number, string, number][] = [
		// A poll may start five minutes late, so the moment before is read five minutes before this poll.
		['Every 5 Minutes', { mode: 'everyX', value: 5, unit: 'minutes' }, friday(15) + 3_000, friday(15) + 5 * MINUTE + 3_000, friday(15) - 5 * MINUTE, 'UTC', DURABLE_POLL_BUDGET_MS],
		// An instance whose poll timeout and lease are 10 minutes gives its polls 8 (n8n 2.41: the shorter less a fifth).
		['Every 5 Minutes, polls of 8 minutes', { mode: 'everyX', value: 5, unit: 'minutes' }, friday(15) + 3_000, friday(15) + 5 * MINUTE + 3_000, friday(15) - 5 * MINUTE, 'UTC', 8 * MINUTE],
		// Published at 15:00 for a digest at 9:00: the first scheduled poll is 18 hours later, far
		// past the Late Window, and still reads back to the moment before publishing.
		['Every Day at 9:00', { mode: 'everyDay', hour: 9, minute: 0 }, friday(15) + 3_000, friday(33) + 3_000, friday(9), 'UTC', DURABLE_POLL_BUDGET_MS],
		// Working hours only, published on a Friday evening: the first poll comes on Monday morning.
		['a custom cron of working hours', { mode: 'custom', cronExpression: '0 */15 8-18 * * 1-5' }, friday(18) + 50 * MINUTE, friday(3 * 24 + 8) + 3_000, friday(18) + 45 * MINUTE, 'UTC', DURABLE_POLL_BUDGET_MS],
		// The same in Berlin, an hour ahead of UTC in November: its hours are Berlin's.
		['a custom cron of working hours in Berlin', { mode: 'custom', cronExpression: '0 */15 8-18 * * 1-5' }, friday(17) + 50 * MINUTE, friday(3 * 24 + 7) + 3_000, friday(17) + 45 * MINUTE, 'Europe/Berlin', DURABLE_POLL_BUDGET_MS],
	];

	it.each(cases)(
		"%s: the first scheduled poll sends every job posted since publishing, and none posted more than the index's usual delay before the moment Poll Times named before it",
		async (_name, pollTimes, activationMs, firstPollMs, namedBeforeMs, timezone, pollBudgetMs) => {
			const { poller, admin } = await published(pollTimes, activationMs, timezone);
			const longAgo = admin.addJobs([{ createdAt: iso(namedBeforeMs - 16 * MINUTE) }, { createdAt: iso(namedBeforeMs - 45 * MINUTE) }]);

			// The activation poll runs with an unfenced budget and sends nothing; n8n keeps none of it.
			const activation = await poller.poll({ commit: false, pollBudgetMs: UNFENCED_BUDGET_MS });
			expect(activation).toEqual({ items: [], empty: true });
			expect(poller.cursor()).toEqual({});

			const shortlyBefore = admin.addJobs([
				{ createdAt: iso(namedBeforeMs - 14 * MINUTE) },
				{ createdAt: iso(Math.min(namedBeforeMs + MINUTE, activationMs - MINUTE)) },
				{ createdAt: iso(activationMs - 2 * MINUTE) },
			]);
			jest.setSystemTime(activationMs + 30_000);
			const since = admin.addJobs([{ createdAt: iso(activationMs + 30_000) }]);
			jest.setSystemTime(firstPollMs - 60_000);
			since.push(...admin.addJobs([{ createdAt: iso(firstPollMs - 60_000) }]));

			jest.setSystemTime(firstPollMs);
			const first = await poller.poll({ commit: true, pollBudgetMs });
			expect(first.error).toBeUndefined();
			const sent = uidsOf(first.items);
			expect(sent).toEqual(expect.arrayContaining(since.map((j) => j.uid)));
			// Posted before publishing, but after the moment Poll Times named before the first poll
			// (less the index's usual delay): the trigger cannot tell those apart from jobs the index
			// showed only after publishing, so it sends them rather than lose one.
			expect(sent.sort()).toEqual([...since, ...shortlyBefore].map((j) => j.uid).sort());
			for (const job of longAgo) expect(sent).not.toContain(job.uid);

			jest.setSystemTime(firstPollMs + 5 * MINUTE);
			const next = await poller.poll({ commit: true, pollBudgetMs });
			expect(next).toEqual({ items: [], empty: true });
		},
	);

	// Each entry is a job of its own there, and each poll starts on the state saved before it: two
	// at once both send the same jobs, and the poll lock, in that state, cannot see the other.
	it('refuses, before any request, every poll of two Poll Times entries, so that two polls at once send nothing twice', async () => {
		const activationMs = DAY_START + 15 * HOUR + 3_000;
		const { poller, admin, accountId } = await published([{ mode: 'everyX', value: 5, unit: 'minutes' }, { mode: 'everyHour', minute: 0 }], activationMs);
		// The activation poll runs outside the scheduler, on a budget that does not tell.
		expect(await poller.poll({ commit: false, pollBudgetMs: UNFENCED_BUDGET_MS })).toEqual({ items: [], empty: true });
		const balance = admin.balance(accountId).totalMicrocents;
		const sent: string[] = [];
		const errors: (string | undefined)[] = [];
		const causes = new Set<unknown>();
		for (let nowMs = activationMs + 5 * MINUTE; nowMs <= activationMs + HOUR; nowMs += 5 * MINUTE) {
			jest.setSystemTime(nowMs - 30_000);
			admin.addJobs([{ createdAt: iso(nowMs - 30_000) }]);
			jest.setSystemTime(nowMs);
			// At 16:00:03, n8n starts a poll for each entry, on the same saved state.
			const polls = nowMs === activationMs + HOUR ? [poller.poll({ commit: true }), poller.poll({ commit: true })] : [poller.poll({ commit: true })];
			for (const outcome of await Promise.all(polls)) {
				sent.push(...uidsOf(outcome.items));
				errors.push(outcome.error?.message);
				causes.add((outcome.error as { failure?: { cause?: string } } | undefined)?.failure?.cause);
			}
		}
		expect(duplicatesOf(sent)).toEqual([]);
		expect(new Set(errors)).toEqual(new Set([TWO_ENTRIES]));
		// n8n then waits its longest (30 minutes) before polling again, not seconds: the input must change.
		expect(causes).toEqual(new Set(['configuration-invalid']));
		expect(admin.balance(accountId).totalMicrocents).toBe(balance);
	});

	// How late n8n may start a poll is an instance setting (N8N_SCHEDULER_MISFIRE_GRACE): entries an hour apart may meet.
	it('refuses two Poll Times entries however far apart their times and whatever poll budget the instance gives, and polls as usual with one', async () => {
		const activationMs = DAY_START + 15 * HOUR + 3_000;
		const polled = async (pollTimes: INodeParameters[], pollBudgetMs = DURABLE_POLL_BUDGET_MS) => {
			const { poller } = await published(pollTimes, activationMs);
			await poller.poll({ commit: false, pollBudgetMs: UNFENCED_BUDGET_MS });
			jest.setSystemTime(activationMs + HOUR);
			const outcome = await poller.poll({ commit: true, pollBudgetMs });
			await server?.close();
			return outcome.error?.message;
		};
		const nineAndFive = [{ mode: 'everyDay', hour: 9, minute: 0 }, { mode: 'everyDay', hour: 17, minute: 0 }];
		expect(await polled(nineAndFive)).toBe(TWO_ENTRIES);
		// An instance whose poll timeout and lease are 10 minutes gives its polls 8 (n8n 2.41: 0.8 of the shorter).
		expect(await polled(nineAndFive, 8 * MINUTE)).toBe(TWO_ENTRIES);
		expect(await polled([{ mode: 'custom', cronExpression: '0 9,17 * * *' }])).toBeUndefined();
	});

	it('polls two Poll Times entries as usual where n8n keeps one state (n8n 2.8, no budget), and Fetch Test Event samples jobs in the durable scheduler', async () => {
		const activationMs = DAY_START + 15 * HOUR + 3_000;
		const twoEntries = { pollTimes: { item: [{ mode: 'everyDay', hour: 9, minute: 0 }, { mode: 'everyDay', hour: 17, minute: 0 }] } };
		jest.setSystemTime(activationMs);
		server = await startServer({ clock: { now: () => Date.now() }, jobs: 0, seed: 2413 });
		const account = await server.admin.createAccount({ plan: 'pro', poolMicrocents: 10 ** 13 });
		server.admin.addJobs([{ createdAt: iso(activationMs - 2 * MINUTE) }]);
		const credentials = { apiKey: account.key, baseUrl: server.url };
		const durable = createPoller({ credentials, parameters: twoEntries, pollBudgetMs: DURABLE_POLL_BUDGET_MS });
		const sample = await durable.poll('manual');
		expect(sample.error).toBeUndefined();
		expect(sample.items).toHaveLength(1);
		const keptState = createPoller({ credentials, parameters: twoEntries });
		expect(await keptState.poll()).toEqual({ items: [], empty: true });
		jest.setSystemTime(activationMs + HOUR);
		const posted = server.admin.addJobs([{ createdAt: iso(activationMs + HOUR - MINUTE) }]);
		const next = await keptState.poll();
		expect(next.error).toBeUndefined();
		expect(uidsOf(next.items)).toEqual(posted.map((j) => j.uid));
	});

	it('where n8n keeps the activation poll (an unfenced budget), sends only the jobs posted after it', async () => {
		const activationMs = DAY_START + 15 * HOUR + 3_000;
		const { poller, admin } = await published({ mode: 'everyX', value: 5, unit: 'minutes' }, activationMs);
		admin.addJobs([{ createdAt: iso(activationMs - 2 * MINUTE) }]);
		expect(await poller.poll({ commit: true, pollBudgetMs: UNFENCED_BUDGET_MS })).toEqual({ items: [], empty: true });
		jest.setSystemTime(activationMs + 30_000);
		const since = admin.addJobs([{ createdAt: iso(activationMs + 30_000) }]);
		jest.setSystemTime(activationMs + 5 * MINUTE);
		const first = await poller.poll({ commit: true, pollBudgetMs: UNFENCED_BUDGET_MS });
		expect(uidsOf(first.items)).toEqual(since.map((j) => j.uid));
	});
});
