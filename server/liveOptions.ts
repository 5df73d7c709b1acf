/**
 * Live mode's options: new postings keep arriving by the clock and the index shows them the way
 * real indexes do. Shapes of index (`model`):
 * - `batch` (the default, as the public deployment describes its index): the index refreshes every
 *   `refreshMinMs` to `refreshMaxMs` and then shows what was posted since the previous refresh;
 *   a share of postings (`stragglerShare`) straggles to the refresh after.
 * - `out-of-order` (an index fed by several scrapers out of step): each posting is shown
 *   `minLagMs` to `maxLagMs` after it was posted, independently of the others; a straggler up to
 *   `maxLagMs` later again.
 * - `lag`: the older option shape, `out-of-order` without stragglers or removals.
 * In both shapes a share of postings (`removalShare`) is removed again (closed or made private)
 * `removalMinMs` to `removalMaxMs` after it was shown. Without `model`, giving `minLagMs` or
 * `maxLagMs` picks `lag`.
 *
 * The rest, each off by default, are what busy and messy indexes add (the trigger's test model
 * test/trigger/indexModel.ts has the same shapes, so both can be measured alike).
 */
export interface LiveOptions {
	model?: 'batch' | 'out-of-order' | 'lag';
	postingsPerHour?: number;
	/**
	 * `steady` (default): one posting every 1/postingsPerHour, each at a random millisecond within
	 * its second (or its slot, where slots are shorter), as the deployment's createdAt carry
	 * milliseconds; above 3,600 an hour two may share one by chance. `poisson`: random
	 * gaps with that mean (as the trigger's test model draws them), so postings bunch up and,
	 * with `roundCreatedAtMs`, share a createdAt even at modest rates.
	 */
	arrivals?: 'steady' | 'poisson';
	refreshMinMs?: number;
	refreshMaxMs?: number;
	stragglerShare?: number;
	removalShare?: number;
	removalMinMs?: number;
	removalMaxMs?: number;
	minLagMs?: number;
	maxLagMs?: number;
	/**
	 * A search's `total` of 1,000 or more is rounded down to a thousand and capped at 10,000, as
	 * search engines report large counts. The page itself is unchanged.
	 */
	approximateTotals?: boolean;
	/**
	 * Jobs that share a createdAt come back in a different order on every request (a seeded
	 * shuffle, so a run replays), instead of the documented uid descending; a page that ends
	 * inside such a group may hold different members of it from one request to the next.
	 */
	unstableTieOrder?: boolean;
	/**
	 * Bulk imports: `count` postings with createdAt spread uniformly over `spreadMs` from `at`
	 * (epoch ms or an ISO 8601 date, on the index's clock), each shown out of order, `minLagMs`
	 * to `maxLagMs` after its createdAt whatever `model` is, with the model's stragglers,
	 * removals and reposts.
	 */
	bursts?: Burst[];
	/**
	 * Share of postings (never one that is removed) posted again under the same uid 20 to 60
	 * minutes after their createdAt: from the moment the repost is shown (`minLagMs` to
	 * `maxLagMs` after its new createdAt) the index shows the job at the new createdAt, until
	 * then at the old one.
	 */
	repostShare?: number;
	/** createdAt rounded down to this many ms (1,000: whole seconds; 60,000: whole minutes), so jobs share a millisecond. 0: off. */
	roundCreatedAtMs?: number;
	/**
	 * How far the index's clock runs behind the server's (negative: ahead). createdAt, visibility,
	 * removals, reposts, bursts, `searchPeriod` and scripted jobs' default createdAt and visibleAt
	 * are on the index's clock, `clock.now() - skewMs`; requests and rate limits on the server's.
	 * The trigger's test model calls the same difference `skewMs` (n8n's clock minus the index's).
	 */
	skewMs?: number;
}

export interface Burst {
	/** Epoch ms, or an ISO 8601 date such as 2026-11-20T14:00:00.000Z. */
	at: number | string;
	count: number;
	spreadMs: number;
}

export type ResolvedLive = Required<Omit<LiveOptions, 'bursts'>> & { bursts: { atMs: number; count: number; spreadMs: number }[] };

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

// The public index refreshes every 5 to 15 minutes (docs/service.md#freshness); "a few" stragglers and
// removals are ours: 2% and 1%, removed between 10 minutes and 6 hours after being shown. The
// out-of-order shape shows each posting 1 to 16 minutes after it was posted.
export const DEFAULT_LIVE: Readonly<ResolvedLive> = {
	model: 'batch',
	postingsPerHour: 60,
	arrivals: 'steady',
	refreshMinMs: 5 * MINUTE_MS,
	refreshMaxMs: 15 * MINUTE_MS,
	stragglerShare: 0.02,
	removalShare: 0.01,
	removalMinMs: 10 * MINUTE_MS,
	removalMaxMs: 6 * HOUR_MS,
	minLagMs: MINUTE_MS,
	maxLagMs: 16 * MINUTE_MS,
	approximateTotals: false,
	unstableTieOrder: false,
	bursts: [],
	repostShare: 0,
	roundCreatedAtMs: 0,
	skewMs: 0,
};

// Bounds that keep memory and catch-up work finite (a posting is a few kB and live mode
// generates up to 30 days of them), and a skew or rounding beyond them models nothing real.
const MAX_POSTINGS_PER_HOUR = 100_000;
const MAX_BURSTS = 100;
const MAX_BURST_COUNT = 100_000;
const MAX_BURST_POSTINGS = 1_000_000;
const MAX_SPREAD_MS = 30 * DAY_MS;
const MAX_ROUND_MS = HOUR_MS;
const MAX_SKEW_MS = DAY_MS;
const MAX_SPAN_MS = 30 * DAY_MS;

const show = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : String(value));

class LiveOptionError extends Error {}

function refuse(field: string, rule: string, value: unknown): never {
	throw new LiveOptionError(`live option ${field} must be ${rule}, got ${show(value)}`);
}

function integer(field: string, value: unknown, min: number, max: number): number {
	if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
		refuse(field, `an integer from ${min} to ${max}`, value);
	}
	return value;
}

function share(field: string, value: unknown): number {
	if (typeof value !== 'number' || !(value >= 0 && value <= 1)) refuse(field, 'a number from 0 to 1', value);
	return value;
}

function flag(field: string, value: unknown): boolean {
	if (typeof value !== 'boolean') refuse(field, 'true or false', value);
	return value;
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
	if (!allowed.includes(value as T)) refuse(field, `one of ${allowed.join(', ')}`, value);
	return value as T;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

function burstsOf(value: unknown): ResolvedLive['bursts'] {
	if (!Array.isArray(value) || value.length > MAX_BURSTS) refuse('bursts', `an array of at most ${MAX_BURSTS} { at, count, spreadMs }`, value);
	let postings = 0;
	const bursts = value.map((burst: unknown, i) => {
		const field = `bursts[${i}]`;
		if (typeof burst !== 'object' || burst === null || Array.isArray(burst)) refuse(field, 'an object { at, count, spreadMs }', burst);
		const { at, count, spreadMs, ...rest } = burst as Record<string, unknown>;
		const unknown = Object.keys(rest)[0];
		if (unknown !== undefined) throw new LiveOptionError(`live option ${field}.${unknown} is not a burst field; a burst has at, count and spreadMs`);
		let atMs: number;
		if (typeof at === 'string' && ISO_DATE.test(at) && !Number.isNaN(Date.parse(at))) atMs = Date.parse(at);
		else if (typeof at === 'number' && Number.isSafeInteger(at) && at >= 0) atMs = at;
		else refuse(`${field}.at`, 'epoch milliseconds or an ISO 8601 date such as 2026-11-20T14:00:00.000Z', at);
		const resolved = {
			atMs,
			count: integer(`${field}.count`, count, 1, MAX_BURST_COUNT),
			spreadMs: integer(`${field}.spreadMs`, spreadMs, 0, MAX_SPREAD_MS),
		};
		postings += resolved.count;
		return resolved;
	});
	if (postings > MAX_BURST_POSTINGS) refuse('bursts', `at most ${MAX_BURST_POSTINGS} postings in all`, `${postings} postings`);
	return bursts;
}

/** Every field checked, defaults filled in; a bad value throws, naming the option and the allowed values. */
export function resolveLiveOptions(options: LiveOptions): ResolvedLive {
	if (typeof options !== 'object' || options === null || Array.isArray(options)) {
		throw new LiveOptionError(`live options must be an object, got ${show(options)}`);
	}
	for (const key of Object.keys(options)) {
		if (!(key in DEFAULT_LIVE)) throw new LiveOptionError(`live option ${key} is unknown; the options are ${Object.keys(DEFAULT_LIVE).join(', ')}`);
	}
	const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as LiveOptions;
	const lagGiven = given.minLagMs !== undefined || given.maxLagMs !== undefined;
	const merged = { ...DEFAULT_LIVE, ...(lagGiven && !given.model ? { model: 'lag' as const } : {}), ...given };
	const postingsPerHour = merged.postingsPerHour;
	if (typeof postingsPerHour !== 'number' || !(postingsPerHour > 0 && postingsPerHour <= MAX_POSTINGS_PER_HOUR)) {
		refuse('postingsPerHour', `a number above 0 and at most ${MAX_POSTINGS_PER_HOUR}`, postingsPerHour);
	}
	const live: ResolvedLive = {
		model: oneOf('model', merged.model, ['batch', 'out-of-order', 'lag'] as const),
		postingsPerHour,
		arrivals: oneOf('arrivals', merged.arrivals, ['steady', 'poisson'] as const),
		refreshMinMs: integer('refreshMinMs', merged.refreshMinMs, 1, MAX_SPAN_MS),
		refreshMaxMs: integer('refreshMaxMs', merged.refreshMaxMs, 1, MAX_SPAN_MS),
		stragglerShare: share('stragglerShare', merged.stragglerShare),
		removalShare: share('removalShare', merged.removalShare),
		removalMinMs: integer('removalMinMs', merged.removalMinMs, 0, MAX_SPAN_MS),
		removalMaxMs: integer('removalMaxMs', merged.removalMaxMs, 0, MAX_SPAN_MS),
		minLagMs: integer('minLagMs', merged.minLagMs, 0, MAX_SPAN_MS),
		maxLagMs: integer('maxLagMs', merged.maxLagMs, 0, MAX_SPAN_MS),
		approximateTotals: flag('approximateTotals', merged.approximateTotals),
		unstableTieOrder: flag('unstableTieOrder', merged.unstableTieOrder),
		bursts: burstsOf(merged.bursts),
		repostShare: share('repostShare', merged.repostShare),
		roundCreatedAtMs: integer('roundCreatedAtMs', merged.roundCreatedAtMs, 0, MAX_ROUND_MS),
		skewMs: integer('skewMs', merged.skewMs, -MAX_SKEW_MS, MAX_SKEW_MS),
	};
	if (live.refreshMaxMs < live.refreshMinMs) refuse('refreshMaxMs', `at least refreshMinMs (${live.refreshMinMs})`, live.refreshMaxMs);
	if (live.removalMaxMs < live.removalMinMs) refuse('removalMaxMs', `at least removalMinMs (${live.removalMinMs})`, live.removalMaxMs);
	if (live.maxLagMs < live.minLagMs) refuse('maxLagMs', `at least minLagMs (${live.minLagMs})`, live.maxLagMs);
	return live;
}

/** What a search reports for `count` matches when totals are approximate: 1,000 or more rounded down to a thousand, at most 10,000. */
export function approximateTotal(count: number): number {
	return count < 1_000 ? count : Math.min(10_000, Math.floor(count / 1_000) * 1_000);
}
