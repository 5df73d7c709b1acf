import { FAKE_DATE_ONLY, MINUTE, runScriptedDay, type TimeControl } from '../trigger/scriptedDay';
const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };
beforeAll(() => jest.useFakeTimers(FAKE_DATE_ONLY));
it('dbg2', async () => {
	let lastLogs = 0;
	const day = await runScriptedDay({ time, seed: 3, hours: 5, pollEvery: [15, 15], parameters: {}, matches: () => true,
		live: { model: 'lag', postingsPerHour: 600, minLagMs: MINUTE, maxLagMs: 15 * MINUTE },
		beforePoll: async (h, index) => {
			const logs = h.poller.logs.slice(lastLogs); lastLogs = h.poller.logs.length;
			const sd = h.poller.staticData() as any;
			console.log(index, logs.map(l => l.message.slice(40, 200)).join(' | '), JSON.stringify({ head: sd.head, swept: sd.swept, settled: sd.settled, pass: sd.pass, pace: sd.pace, seen: Object.keys(sd.seen ?? {}).length }));
		} });
	await day.h.server.close();
}, 600000);
