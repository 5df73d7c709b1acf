import { recordingSleep, waitsMoveDate } from '../support/sleeps';

// Every wait the trigger asks for (its request pacing) moves the faked Date on instead of passing
// in real time; the reference server reads the same clock.
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import { searchOf } from './pollHelpers';
import { FAKE_DATE_ONLY, MINUTE, runScriptedDay, type DayResult, type TimeControl } from './scriptedDay';

const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };

beforeAll(() => {
	jest.useFakeTimers(FAKE_DATE_ONLY);
	waitsMoveDate();
});
afterAll(() => jest.useRealTimers());

/**
 * A search matching every posting, polled every 15 minutes in n8n 2.41's default scheduler, which
 * gives a poll 5 minutes (n8n 2.8 would leave 12): about 40 requests, fewer than the final looks
 * of a search this busy would take by themselves.
 */
async function busyDay(hours: number, postingsPerHour: number): Promise<DayResult> {
	return await runScriptedDay({
		time,
		seed: 3,
		hours,
		pollEvery: [15, 15],
		pollBudgetMs: 5 * MINUTE,
		parameters: {},
		matches: () => true,
		live: { model: 'lag', postingsPerHour, minLagMs: MINUTE, maxLagMs: 15 * MINUTE },
	});
}

describe('after 12,000 jobs in ten hours', () => {
	let day: DayResult;
	beforeAll(async () => {
		day = await busyDay(10, 1_200);
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('keeps its state under a fixed size: at most 10,000 uids, those the Late Window can still show and those a repost may bring back', () => {
		expect(day.trigger.delivered.length).toBeGreaterThanOrEqual(10_000);
		expect(day.trigger.duplicates).toEqual([]);
		expect(searchOf(day.h.poller)!.watch!.seen.size).toBeLessThanOrEqual(10_000);
		// About 36 bytes a uid: n8n stores this with the workflow after each poll that changes it.
		expect(day.maxStateBytes).toBeLessThan(400_000);
		// The cap forgot only uids already settled, none the Late Window could still show.
		expect(day.h.poller.logs.filter((l) => /than it can remember/.test(l.message))).toEqual([]);
	});
});

describe('after six hours at 2,400 jobs an hour, in polls of 5 minutes', () => {
	let day: DayResult;
	beforeAll(async () => {
		day = await busyDay(6, 2_400);
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('settles part by part what had its final look, so no unsettled uid is forgotten, where one poll cannot count it all', () => {
		// The count before the final looks: what a poll counted stays settled, the next poll goes on.
		const watch = searchOf(day.h.poller)!.watch!;
		expect(watch.finalMs - watch.floorMs).toBeLessThanOrEqual(2 * 60 * MINUTE);
		expect(day.trigger.duplicates).toEqual([]);
		expect(day.h.poller.logs.filter((l) => /than it can remember/.test(l.message))).toEqual([]);
	});
});
