import { runCycle, type CycleSettings } from '../nodes/JobSearch/trigger/cycle';
import type { TriggerState } from '../nodes/JobSearch/trigger/state';
import { HARSH, MINUTE, arrayIndex, generateIndex, shownAt, type IndexShape } from '../test/trigger/indexModel';

/** What one run of the trigger over a simulated stretch of days delivered, and what it cost. */
export interface ShapeFigures {
	shape: IndexShape;
	everyMinutes: number;
	delivered: number;
	rowsPerJob: number;
	requestsPerPoll: number;
	maxRequestsPerPoll: number;
	firstPollShare: number;
	/** Minutes from the first poll at or after a job showed to the poll that sent it. */
	worstDelayMinutes: number;
	lost: number;
	duplicates: number;
}

const DAY = 24 * 60 * MINUTE;

/**
 * The trigger's poll rules (runCycle, the same code the node runs) against an index shape kept in
 * an array, polled every `everyMinutes` for `days`, with the trigger's defaults.
 */
export async function runShape(shape: IndexShape, everyMinutes: number, days: number, seed: number, settings: CycleSettings): Promise<ShapeFigures> {
	const fromMs = Date.UTC(2026, 10, 20, 0, 0, 0);
	const toMs = fromMs + days * DAY;
	const jobs = generateIndex({ shape, seed, fromMs, toMs, ...HARSH });
	const clock = { ms: fromMs };
	const index = arrayIndex(jobs, clock);
	let state: TriggerState | undefined;
	const pollTimes: number[] = [];
	const deliveredAt = new Map<string, number>();
	let duplicates = 0;
	let maxRequests = 0;
	for (let t = fromMs; t <= toMs; t += everyMinutes * MINUTE) {
		clock.ms = t;
		pollTimes.push(t);
		const before = index.requests.length;
		const out = await runCycle(state, settings, index.fetchPage, () => clock.ms);
		maxRequests = Math.max(maxRequests, index.requests.length - before);
		state = out.state;
		for (const job of out.emit) {
			const uid = String(job.uid);
			if (deliveredAt.has(uid)) duplicates++;
			else deliveredAt.set(uid, t);
		}
	}
	// Expected: posted after activation, shown at some poll, still shown at the end, and shown at
	// least an hour before the end (what shows later may still be on its way).
	const firstPollAfter = (ms: number) => pollTimes.find((p) => p >= ms);
	const expected = jobs.filter(
		(j) => j.createdMs > fromMs && shownAt(j, toMs) && j.visibleMs <= toMs - 60 * MINUTE && pollTimes.some((p) => shownAt(j, p)),
	);
	let firstPoll = 0;
	let worst = 0;
	let lost = 0;
	for (const job of expected) {
		const at = deliveredAt.get(job.uid);
		if (at === undefined) {
			lost++;
			continue;
		}
		const first = firstPollAfter(job.visibleMs)!;
		if (at === first) firstPoll++;
		worst = Math.max(worst, (at - first) / MINUTE);
	}
	const delivered = deliveredAt.size;
	return {
		shape,
		everyMinutes,
		delivered,
		rowsPerJob: index.rows() / Math.max(1, delivered),
		requestsPerPoll: index.requests.length / pollTimes.length,
		maxRequestsPerPoll: maxRequests,
		firstPollShare: firstPoll / Math.max(1, expected.length - lost),
		worstDelayMinutes: worst,
		lost,
		duplicates,
	};
}

if (require.main === module) {
	void (async () => {
		const settings: CycleSettings = { lateWindowMs: 60 * MINUTE, maxJobsPerPoll: 1000, rowsPerRequest: 500, budgetMs: 60_000 };
		const days = Number(process.env.DAYS ?? 3);
		for (const shape of ['batch', 'out-of-order'] as const) {
			for (const every of [1, 5, 15, 60]) {
				const f = await runShape(shape, every, days, Number(process.env.SEED ?? 7), settings);
				console.log(
					`${shape.padEnd(12)} ${String(every).padStart(2)} min: rows/job ${f.rowsPerJob.toFixed(2)} req/poll ${f.requestsPerPoll.toFixed(2)} (max ${f.maxRequestsPerPoll}) first ${(100 * f.firstPollShare).toFixed(1)}% worst ${f.worstDelayMinutes} min lost ${f.lost} dup ${f.duplicates} of ${f.delivered}`,
				);
			}
		}
	})();
}
