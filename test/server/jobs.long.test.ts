import { createManualClock } from '../../server';
import { JobStore } from '../../server/store';
import { startTestServer, T0 } from './helpers';

// Live mode over simulated hours and a year: seconds of work each, so in the long suite; the
// rest of live mode is checked in jobs.test.ts.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('live mode over long spans', () => {
	it.each(['batch', 'out-of-order'] as const)('on the %s index shows some postings late and removes some after they were shown', async (model) => {
		const live = { model, postingsPerHour: 600, stragglerShare: 0.1, removalShare: 0.1, removalMinMs: MINUTE, removalMaxMs: 30 * MINUTE };
		const store = new JobStore({ clock: createManualClock(T0), seed: 9, jobs: 0, live });
		const clock = (store as unknown as { options: { clock: { advance(ms: number): void; now(): number } } }).options.clock;
		const shownAt = new Map<string, number>();
		const removed = new Set<string>();
		let previous = new Set<string>();
		for (let minute = 1; minute <= 6 * 60; minute++) {
			clock.advance(MINUTE);
			const now = new Set(store.visible().map((e) => e.job.uid));
			for (const uid of now) if (!shownAt.has(uid)) shownAt.set(uid, clock.now());
			for (const uid of previous) if (!now.has(uid)) removed.add(uid);
			previous = now;
		}
		const kept = [...shownAt].filter(([uid]) => store.get(uid) !== undefined);
		const lags = kept.map(([uid, at]) => (at - Date.parse(store.get(uid)!.createdAt)) / MINUTE);
		expect(removed.size).toBeGreaterThan(100);
		// Out of order: most within 1 to 16 minutes, stragglers later; batch: refreshes 5 to 15 minutes apart.
		expect(Math.max(...lags)).toBeGreaterThan(16);
		if (model === 'out-of-order') expect(lags.filter((l) => l >= 1 && l <= 16).length / lags.length).toBeGreaterThan(0.8);
		// Shown out of createdAt order: a job shown after another that was posted later.
		const order = kept.sort((a, b) => a[1] - b[1]).map(([uid]) => Date.parse(store.get(uid)!.createdAt));
		expect(order.some((created, i) => i > 0 && order[i - 1] > created)).toBe(true);
	});

	it('does bounded work when the clock jumps far ahead', async () => {
		const t = await startTestServer({ jobs: 0, live: { postingsPerHour: 60 } });
		try {
			t.clock.advance(365 * 24 * HOUR);
			// Only the last 30 days of arrivals are generated, not a year of them.
			expect(t.server.admin.visibleJobs().length).toBeLessThanOrEqual(30 * 24 * 60);
		} finally {
			await t.server.close();
		}
	});

	// Found by a review: the jump's skip counted slots, and an arrival's millisecond carried one of them past the edge.
	it('keeps every arrival of the last 30 days where the clock jumps past the rest, as where it steps through', () => {
		const DAY = 24 * HOUR;
		const live = { model: 'lag' as const, postingsPerHour: 7, minLagMs: 0, maxLagMs: 0 };
		// The 30 days end half a second past a slot: an arrival of that slot a millisecond later is inside them.
		const endMs = T0 + 30 * DAY + HOUR + 500;
		const inLast30Days = (store: JobStore) => store.visible().map((e) => e.job.createdAt).filter((at) => Date.parse(at) >= endMs - 30 * DAY);
		for (const seed of [1, 2, 3, 4, 5, 6]) {
			const clockOf = (store: JobStore) => (store as unknown as { options: { clock: { advance(ms: number): void; now(): number } } }).options.clock;
			const jumped = new JobStore({ clock: createManualClock(T0), seed, jobs: 0, live });
			clockOf(jumped).advance(endMs - T0);
			const stepped = new JobStore({ clock: createManualClock(T0), seed, jobs: 0, live });
			while (clockOf(stepped).now() < endMs) {
				clockOf(stepped).advance(Math.min(DAY, endMs - clockOf(stepped).now()));
				stepped.visible();
			}
			expect(inLast30Days(jumped)).toEqual(inLast30Days(stepped));
		}
	});
});
