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
			overlapMinutes: 20,
			parameters: {},
			matches: () => true,
			live: { postingsPerHour: 600, minLagMs: MINUTE, maxLagMs: 15 * MINUTE },
		});
	});
	afterAll(async () => day && (await day.h.server.close()));

	it('keeps its state under a fixed size: only the uids the overlap window can return again', () => {
		console.log(`State after ${day.emitted.length} jobs: ${JSON.stringify(day.h.poller.staticData()).length} bytes (largest ${day.maxStateBytes}).`);
		expect(day.emitted.length).toBeGreaterThanOrEqual(10_000);
		expect(new Set(day.emitted).size).toBe(day.emitted.length);
		// 600 jobs an hour leave ~200 in a 20-minute window, about 40 bytes each.
		expect(day.maxStateBytes).toBeLessThan(16_000);
	});
});
