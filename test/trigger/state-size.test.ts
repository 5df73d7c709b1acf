import { FAKE_DATE_ONLY, MINUTE, runScriptedDay, type DayResult, type TimeControl } from './scriptedDay';

const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };

beforeAll(() => jest.useFakeTimers(FAKE_DATE_ONLY));
afterAll(() => jest.useRealTimers());

describe('after 10,000 jobs', () => {
	let day: DayResult;
	beforeAll(async () => {
		day = await runScriptedDay({
			time,
			seed: 3,
			hours: 17,
			pollEvery: [15, 15],
			parameters: {},
			matches: () => true,
			live: { model: 'lag', postingsPerHour: 600, minLagMs: MINUTE, maxLagMs: 15 * MINUTE },
		});
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('keeps its state under a fixed size: only the uids the Late Window can still show', () => {
		console.log(`State after ${day.trigger.delivered.length} jobs: ${JSON.stringify(day.h.poller.staticData()).length} bytes (largest ${day.maxStateBytes}).`);
		expect(day.trigger.delivered.length).toBeGreaterThanOrEqual(10_000);
		expect(day.trigger.duplicates).toEqual([]);
		// 600 jobs an hour: the uids of the Late Window plus up to an hour swept but not yet counted,
		// about 1,500 at most, 35 bytes each.
		expect(day.maxStateBytes).toBeLessThan(60_000);
	});
});
