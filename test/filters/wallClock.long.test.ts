import { DateTime } from 'luxon';

import { wallClockToUtcMs } from '../../nodes/JobSearch/filters/timeZone';

// A sweep of every quarter hour around a year's clock changes in seven zones: seconds of work, so
// in the long suite; the cases it stands on are in toRequestBody.test.ts.

describe('wall-clock dates around daylight saving changes, swept', () => {
	// Luxon picks between the two occurrences of a repeated time by today's offset, so those
	// times are left out of the comparison; every other time must agree to the millisecond.
	it('agrees with Luxon, which n8n uses for dates, around every clock change of a year in zones with odd rules', () => {
		const zones = ['America/New_York', 'Europe/Berlin', 'America/St_Johns', 'America/Santiago', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Asia/Kathmandu'];
		const differ: string[] = [];
		let checked = 0;
		for (const zone of zones) {
			const days = Array.from({ length: 365 }, (_, i) => Date.UTC(2026, 0, 1) + i * 86_400_000);
			const changes = days.filter((t) => DateTime.fromMillis(t, { zone }).offset !== DateTime.fromMillis(t + 86_400_000, { zone }).offset);
			for (const day of [...changes, days[40], days[200]]) {
				for (let t = day - 86_400_000; t < day + 2 * 86_400_000; t += 15 * 60 * 1000) {
					const wall = new Date(t).toISOString().slice(0, 19);
					const offsets = new Set([-1, 1].map((side) => DateTime.fromMillis(t + side * 86_400_000, { zone }).offset));
					const shows = (utc: number) => DateTime.fromMillis(utc, { zone }).toISO()?.slice(0, 19) === wall;
					if ([...offsets].filter((minutes) => shows(t - minutes * 60_000)).length > 1) continue;
					checked++;
					if (wallClockToUtcMs(wall, zone) !== DateTime.fromISO(wall, { zone }).toMillis()) differ.push(`${zone} ${wall}`);
				}
			}
		}
		expect(checked).toBeGreaterThan(5000);
		expect(differ.slice(0, 5)).toEqual([]);
	});
});
