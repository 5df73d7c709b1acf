import type { CycleSettings } from '../nodes/JobSearch/trigger/cycle';
import type { Delivery } from '../nodes/JobSearch/trigger/types';
import { HARSH, HOUR, MINUTE, SharedKey, generateIndex, type IndexBehaviour, type IndexedJob, type ShapeOptions } from '../test/trigger/indexModel';
import { defaultSettings, pollTimeFor, simulate, type SimFigures } from '../test/trigger/simulation';
import { seededRandom } from '../server/random';
import { WINDOW_REQUEST_CAP } from '../nodes/JobSearch/trigger/requests';

/**
 * The index shapes the trigger is measured on, beyond the two the reference server models by
 * default: busy searches with rounded totals and unstable tie order, bulk imports, reposts, ties,
 * clock skew, a key shared with other workflows, and three alert workflows on one Free key.
 */
export interface ShapeCase {
	name: string;
	shape: Omit<ShapeOptions, 'seed' | 'fromMs' | 'toMs'>;
	behaviour?: IndexBehaviour;
	/** Several alert workflows on one key: figures are per workflow, the worst one shown. */
	workflows?: number;
	/** Several searches in one trigger, each matching this share of the postings independently. */
	searches?: number[];
	/** Other than the defaults, e.g. the poll time of n8n 2.41's durable scheduler. */
	settings?: Partial<CycleSettings>;
	/** What n8n gives a poll at most (getPollBudgetMs), where it is shorter than n8n 2.8's share of the interval. */
	pollBudgetMs?: number;
	/** Bulk imports: this many postings in two minutes, a quarter and three quarters into the run (3,000 unless set). */
	burst?: number;
	/** 20-minute outages (every request 503) this many hours into each day. */
	outageHours?: number[];
	/** Each request takes a time drawn in this range (250 ms unless set). */
	answerMs?: [number, number];
	/** As Soon As Seen: the most rows per delivered job (none where the host bills rows of its own making). */
	rowsGoal?: number;
	/** As Soon As Seen at Every 15 and 60 Minutes: the least share of jobs sent on the first poll that could see them. */
	firstPollGoal?: number;
	/** As Soon As Seen at Every 1 and 5 Minutes: every job within 16 minutes of the first poll that could see it. */
	within16?: boolean;
}

const BATCH = { ...HARSH, shape: 'batch' as const, perHour: 40 };
const OUT_OF_ORDER = { ...HARSH, shape: 'out-of-order' as const, perHour: 40 };
const BUSY = { roundTotals: true, unstableTies: true };

/** The goals (README, job alerts): ordinary searches, those of up to 40 an hour, and the heavy shapes. */
const ORDINARY = { rowsGoal: 1.3, firstPollGoal: 0.95 };
const HEAVY = { rowsGoal: 2.0, firstPollGoal: 0.5 };

export const SHAPE_CASES: ShapeCase[] = [
	{ name: 'batch, 40 an hour', shape: BATCH, ...ORDINARY, within16: true },
	{ name: 'batch, 150 an hour', shape: { ...BATCH, perHour: 150 }, ...ORDINARY },
	{ name: 'a narrow search: 2 an hour', shape: { ...BATCH, perHour: 2 }, ...ORDINARY },
	{ name: 'out of order, 40 an hour', shape: OUT_OF_ORDER, rowsGoal: 1.3, within16: true },
	{ name: 'out of order, 150 an hour', shape: { ...OUT_OF_ORDER, perHour: 150 }, rowsGoal: 2.0 },
	{ name: 'busy: 1,500 an hour, rounded totals, unstable ties', shape: { ...BATCH, perHour: 1500, roundToMs: 1000 }, behaviour: BUSY, ...HEAVY },
	{ name: 'busy out of order: 1,500 an hour', shape: { ...OUT_OF_ORDER, perHour: 1500, roundToMs: 1000 }, behaviour: BUSY, ...HEAVY },
	{ name: 'busy, 5 min a poll (n8n 2.41 default)', shape: { ...BATCH, perHour: 1500, roundToMs: 1000 }, behaviour: BUSY, pollBudgetMs: 5 * MINUTE, ...HEAVY },
	{ name: 'bursts: 3,000 in 2 minutes, twice', shape: { ...OUT_OF_ORDER, bursts: [] }, behaviour: { roundTotals: true }, ...HEAVY },
	{ name: 'reposts: 10% posted again 20-60 min later', shape: { ...BATCH, repostShare: 0.1 }, ...ORDINARY, within16: true },
	{ name: 'ties: createdAt in whole minutes', shape: { ...OUT_OF_ORDER, roundToMs: MINUTE }, ...HEAVY },
	{ name: 'n8n 10 min ahead of the index', shape: BATCH, behaviour: { skewMs: 10 * MINUTE }, ...ORDINARY, within16: true },
	{ name: 'n8n 10 min behind the index', shape: BATCH, behaviour: { skewMs: -10 * MINUTE }, ...ORDINARY, within16: true },
	// The key's limit comes first: these hold freshness only as far as the requests allow.
	{ name: 'a shared key: 30% of requests 429', shape: BATCH, behaviour: { share429: 0.3, retryAfterMs: 20_000 }, rowsGoal: 1.3 },
	{ name: 'three alert workflows on one Free key', shape: BATCH, workflows: 3, rowsGoal: 1.3 },
	{ name: 'three searches in one trigger (60 an hour, overlapping)', shape: { ...BATCH, perHour: 60 }, searches: [0.5, 0.4, 0.3], ...ORDINARY },
	{ name: 'batch, 40 an hour, 36 s a poll (n8n 2.41 durable)', shape: BATCH, settings: { pollTimeMs: 36_000 }, ...HEAVY },
	{ name: 'out of order, 40 an hour, 36 s a poll (n8n 2.41 durable)', shape: OUT_OF_ORDER, settings: { pollTimeMs: 36_000 }, ...HEAVY },
	// Hosts that deviate from the contract in ordinary ways (a search engine in front of the service).
	{ name: 'host rounds the time bounds to whole minutes', shape: BATCH, behaviour: { roundBoundsMs: MINUTE } },
	{ name: 'host answers at most 100 rows a page; imports of 600', shape: { ...OUT_OF_ORDER, bursts: [] }, burst: 600, behaviour: { pageCap: 100 }, ...HEAVY },
	{ name: 'host repeats one row in three', shape: BATCH, behaviour: { repeatEvery: 3 }, firstPollGoal: 0.95 },
	{ name: 'host leaves a row out of one page in twenty', shape: BATCH, behaviour: { leaveOutShare: 0.05 } },
	{ name: 'host writes createdAt in whole seconds', shape: OUT_OF_ORDER, behaviour: { writesCreatedAtToMs: 1000 } },
	{ name: 'host rounds the bounds and leaves rows out, 150 an hour', shape: { ...OUT_OF_ORDER, perHour: 150 }, behaviour: { roundBoundsMs: MINUTE, leaveOutShare: 0.05 } },
	{ name: 'host writes createdAt in whole seconds, 150 an hour', shape: { ...OUT_OF_ORDER, perHour: 150 }, behaviour: { writesCreatedAtToMs: 1000 } },
	{ name: 'host writes whole seconds, 100 rows a page; imports of 600', shape: { ...OUT_OF_ORDER, perHour: 150, bursts: [] }, burst: 600, behaviour: { writesCreatedAtToMs: 1000, pageCap: 100 }, ...HEAVY },
	{ name: 'host drops a job out now and then within its Late Window', shape: { ...OUT_OF_ORDER, perHour: 150 }, behaviour: { dropsOut: { share: 0.2, withinMs: 60 * MINUTE } } },
	{ name: 'host answers in 1 to 20 seconds, 150 an hour', shape: { ...BATCH, perHour: 150 }, answerMs: [1_000, 20_000] },
	{ name: 'host answers 503 for 20 minutes, twice a day', shape: BATCH, outageHours: [5, 17], ...ORDINARY },
];

export interface CaseRun {
	figures: SimFigures;
	/** Several searches: how many of them match a matching job on average (each pays its own row for it). */
	overlap: number;
	/** The worst of several workflows, when the case has several. */
	all: SimFigures[];
	/** What no reader could do better in this case, given a run's figures. */
	limitsOf: (f: SimFigures) => Limits;
}

/** The bounds a run's goals are held against: where a goal lies beyond them, the key's limit (an earlier goal) wins. */
export interface Limits {
	/** The fewest rows per job a reader that loses nothing could pay (see rowsFloor). */
	rowsFloor: number;
	/**
	 * Requests a minute it takes to ask every stretch of the Late Window at least once in 16 minutes
	 * (what a job shown late anywhere in it needs to arrive within 16 minutes without buying known
	 * jobs again), or at every poll where polls are 15 minutes apart or more (for it to arrive on the
	 * first poll after it shows), the head reads included...
	 */
	freshRequestsPerMinute: number;
	/** ...and what the key's limit and the poll's time allow. */
	requestsPerMinute: number;
	/**
	 * Where the first exceeds the second, asking several stretches in one request buys their known
	 * jobs again: the fewest rows per job asking every stretch so often then costs.
	 */
	freshRows: number;
	/**
	 * Where the index makes ties (createdAt in whole seconds or minutes): the share of jobs shown a
	 * poll or more after another job of their createdAt (late ties, found only by reading that
	 * moment again), and distinct createdAt values per job (what reading every known one again costs).
	 */
	ties?: { lateShare: number; momentsPerJob: number };
}

/**
 * The fewest rows per delivered job that any reader which never loses a job can pay, within the
 * requests the key's limit and the poll's time allow. Each job is bought once. After its Late
 * Window, every stretch of time between the createdAt of known jobs must be asked once more (a
 * count cannot tell a job shown late from one removed beside it), and a request that spans k
 * stretches buys again the known jobs between them. Each poll spends at least one request per
 * search asking for new jobs. So rows >= matches + (stretches past their Late Window - requests
 * left). Where the index makes ties the least is higher still (a late tie hides in a known
 * millisecond, so every known one is bought again): this bound leaves that out.
 */
function rowsFloor(f: SimFigures, finalStretches: number, requestsAllowed: number, searches: number, overlap: number): number {
	const looks = requestsAllowed - f.polls * searches;
	return overlap + Math.max(0, finalStretches - looks) / Math.max(1, f.delivered);
}

const DAY_START = Date.UTC(2026, 10, 20, 0, 0, 0);

/** The index of a case from `fromMs` to `toMs`, its imports (a quarter and three quarters in) included. */
export function caseJobs(c: ShapeCase, fromMs: number, toMs: number, seed: number): IndexedJob[] {
	const bursts = c.shape.bursts ? [0.25, 0.75].map((share) => ({ atMs: fromMs + Math.round(share * (toMs - fromMs)), count: c.burst ?? 3000, spreadMs: 2 * MINUTE })) : undefined;
	return generateIndex({ ...c.shape, ...(bursts ? { bursts } : {}), seed, fromMs, toMs });
}

/** One case at one interval over `days`, with the trigger's defaults (n8n 2.8's poll time unless `pollTimeMs`). */
export async function runCase(c: ShapeCase, everyMinutes: number, days: number, seed: number, over: Partial<CycleSettings> = {}): Promise<CaseRun> {
	const fromMs = DAY_START;
	const toMs = fromMs + days * 24 * HOUR;
	const pollTimeMs = Math.min(pollTimeFor(everyMinutes), c.pollBudgetMs ?? Infinity);
	const settings = defaultSettings({ intervalMs: everyMinutes * MINUTE, pollTimeMs, ...c.settings, ...over });
	const workflows = c.workflows ?? 1;
	const key = workflows > 1 ? new SharedKey(10) : undefined;
	const outages = (c.outageHours ?? []).flatMap((h) => Array.from({ length: Math.ceil(days) }, (_, d) => ({ fromMs: fromMs + (d * 24 + h) * HOUR, toMs: fromMs + (d * 24 + h) * HOUR + 20 * MINUTE })));
	const triggers = Array.from({ length: workflows }, (_, w) => {
		const jobs = caseJobs(c, fromMs, toMs, seed + w * 1009);
		const random = seededRandom(seed + 17);
		const matched = c.searches?.map((share, s) => ({ key: `search${s + 1}`, share })) ?? [];
		const picks = new Map(jobs.map((j) => [j.uid, matched.map((m) => random() < m.share)]));
		const searches = matched.length ? matched.map((m, s) => ({ key: m.key, jobs: jobs.filter((j) => picks.get(j.uid)![s]) })) : undefined;
		return {
			jobs: searches ? jobs.filter((j) => picks.get(j.uid)!.some(Boolean)) : jobs,
			...(searches ? { searches } : {}),
			behaviour: { ...c.behaviour, seed: seed + w, ...(key ? { key } : {}), ...(outages.length ? { outages } : {}) },
			settings,
			everyMinutes,
			...(c.answerMs ? { answerMs: c.answerMs } : {}),
		};
	});
	const all = await simulate(triggers, fromMs, toMs);
	const t0 = triggers[0];
	const overlap = t0.searches ? t0.searches.reduce((sum, search) => sum + search.jobs.length, 0) / Math.max(1, t0.jobs.length) : 1;
	const figures = all.reduce((worst, f) => (f.lost.length + f.duplicates.length + f.failedPolls > worst.lost.length + worst.duplicates.length + worst.failedPolls || f.rowsPerJob > worst.rowsPerJob ? f : worst));
	// Requests allowed: Requests per Minute (the key's limit shared by several workflows), and no
	// more than its limit lets start within one poll's time.
	const minutes = (toMs - fromMs) / MINUTE;
	const perMinute = Math.min(settings.requestsPerMinute, WINDOW_REQUEST_CAP / workflows);
	const perPoll = Math.max(1, Math.floor((settings.pollTimeMs * WINDOW_REQUEST_CAP) / MINUTE));
	// The stretches each search must ask again: one per distinct createdAt of its jobs whose Late
	// Window ended before the run did.
	const finalBeforeMs = toMs - settings.lateWindowMs - everyMinutes * MINUTE;
	const stretchesOf = (jobs: IndexedJob[]) => new Set(jobs.filter((j) => j.createdMs <= finalBeforeMs).map((j) => j.createdMs)).size;
	const finalStretches = triggers.map((t) => (t.searches ? t.searches.reduce((sum, search) => sum + stretchesOf(search.jobs), 0) : stretchesOf(t.jobs)));
	const searchCount = c.searches?.length ?? 1;
	const ties = c.shape.roundToMs ? tiesOf(t0.jobs, everyMinutes) : undefined;
	const limitsOf = (f: SimFigures): Limits => {
		const stretches = finalStretches[Math.max(0, all.indexOf(f))];
		const allowed = Math.min(perMinute * minutes, perPoll * f.polls);
		const stretchesInLateWindow = (stretches / Math.max(1, (finalBeforeMs - fromMs) / MINUTE)) * (settings.lateWindowMs / MINUTE);
		const freshRequestsPerMinute = stretchesInLateWindow / (everyMinutes >= 15 ? everyMinutes : 16 - everyMinutes) + searchCount / everyMinutes;
		return {
			rowsFloor: rowsFloor(f, stretches, allowed, searchCount, overlap),
			freshRequestsPerMinute,
			requestsPerMinute: allowed / minutes,
			freshRows: overlap + (Math.max(0, freshRequestsPerMinute - allowed / minutes) * minutes) / Math.max(1, f.delivered),
			...(ties ? { ties } : {}),
		};
	};
	return { figures, all, overlap, limitsOf };
}

/** Late ties (shown after a poll that could read a job of their createdAt) and distinct createdAt values, per job. */
function tiesOf(jobs: IndexedJob[], everyMinutes: number): NonNullable<Limits['ties']> {
	const pollOf = (ms: number) => Math.floor((ms - DAY_START) / (everyMinutes * MINUTE));
	const firstShown = new Map<number, number>();
	for (const j of jobs) firstShown.set(j.createdMs, Math.min(firstShown.get(j.createdMs) ?? Infinity, j.visibleMs));
	const late = jobs.filter((j) => pollOf(j.visibleMs) > pollOf(firstShown.get(j.createdMs)!)).length;
	return { lateShare: late / Math.max(1, jobs.length), momentsPerJob: firstShown.size / Math.max(1, jobs.length) };
}

/** Lowest Cost: at most this many rows per job on every shape... */
export const LOWEST_COST_ROWS_GOAL = 1.15;
/** ...each job by its Late Window plus two polls and five minutes (the index's clock is known only from its newest job). */
export const lowestCostLateGoalMinutes = (everyMinutes: number) => 2 * everyMinutes + 5;

/** The goals for one row (see the README's job alerts): what is met, and the words for what is not. */
export function verdict(c: ShapeCase, everyMinutes: number, f: SimFigures, overlap = 1, limits?: Limits, delivery: Delivery = 'asSoonAsSeen'): string[] {
	const floor = limits?.rowsFloor ?? 0;
	const misses: string[] = [];
	if (f.duplicates.length > 0) misses.push(`${f.duplicates.length} twice`);
	if (f.lost.length > 0) misses.push(`${f.lost.length} lost of ${f.owed}`);
	if (f.peakPerMinute > 10) misses.push(`${f.peakPerMinute} requests in one minute`);
	if (f.failedPolls > 0) misses.push(`${f.failedPolls} failed polls`);
	if (delivery === 'lowestCost') {
		if (c.rowsGoal !== undefined && f.rowsPerJob > LOWEST_COST_ROWS_GOAL * overlap) misses.push(`${f.rowsPerJob.toFixed(2)} rows per job (goal ${(LOWEST_COST_ROWS_GOAL * overlap).toFixed(2)})`);
		if (f.worstPastLateWindowMinutes > lowestCostLateGoalMinutes(everyMinutes)) misses.push(`a job ${Math.round(f.worstPastLateWindowMinutes)} min past its Late Window (goal ${lowestCostLateGoalMinutes(everyMinutes)})`);
		return misses;
	}
	// Several searches each pay their own row for a job they all match: the goal is per match.
	const goal = (c.rowsGoal ?? Infinity) * overlap;
	if (f.rowsPerJob > goal) {
		const below = goal < floor ? `; within the key's limit a reader that sends each job as it shows pays at least ${floor.toFixed(2)}` : '';
		misses.push(`${f.rowsPerJob.toFixed(2)} rows per job (goal ${goal.toFixed(2)}${below})`);
	}
	// Where freshness lies beyond the key's limit, the limit (an earlier goal) wins: said, not hidden.
	const beyond = limits && limits.freshRequestsPerMinute > limits.requestsPerMinute ? ` (asking every stretch that often takes ${limits.freshRequestsPerMinute.toFixed(1)} requests a minute; the key's limit allows ${limits.requestsPerMinute.toFixed(1)})` : '';
	if (c.within16 && everyMinutes <= 5 && f.worstDelayMinutes > 16) misses.push(`a job ${Math.round(f.worstDelayMinutes)} min late${beyond}`);
	if (c.firstPollGoal !== undefined && everyMinutes >= 15 && f.firstPollShare < c.firstPollGoal) misses.push(`${(100 * f.firstPollShare).toFixed(1)}% on the first poll (goal ${100 * c.firstPollGoal}%)${beyond}`);
	return misses;
}

if (require.main === module) {
	void (async () => {
		const days = Number(process.env.DAYS ?? 3);
		const only = process.env.ONLY;
		const intervals = (process.env.EVERY ?? '1,5,15,60').split(',').map(Number);
		for (const c of SHAPE_CASES.filter((s) => !only || s.name.includes(only))) {
			for (const every of intervals) {
				const started = Date.now();
				const delivery = (process.env.DELIVERY ?? 'asSoonAsSeen') as Delivery;
				const { figures: f, overlap, limitsOf } = await runCase(c, every, days, Number(process.env.SEED ?? 7), { delivery });
				const misses = verdict(c, every, f, overlap, limitsOf(f), delivery);
				console.log(
					`${c.name.padEnd(52)} ${String(every).padStart(2)} min: rows/job ${f.rowsPerJob.toFixed(2)} req/poll ${f.requestsPerPoll.toFixed(2)} (max ${f.maxRequestsPerPoll}, peak/min ${f.peakPerMinute}) first ${(100 * f.firstPollShare).toFixed(1)}% worst ${f.worstDelayMinutes.toFixed(0)} min past LW ${f.worstPastLateWindowMinutes.toFixed(0)} min (${f.delays.filter((d) => d > 16).length} over 16) lost ${f.lost.length}/${f.owed} twice ${f.duplicates.length} failed ${f.failedPolls} ${misses.length ? `NOT MET: ${misses.join(', ')}` : 'met'} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
				);
			}
		}
	})();
}
