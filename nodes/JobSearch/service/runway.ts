/**
 * How long the credit left lasts: the pace a workflow spends at, remembered in a small record
 * that fits the workflow's static data, and the warning the nodes show or log when the credit
 * would run out within a week (or falls below the user's own threshold). Pure arithmetic: no
 * n8n, no clock of its own; the caller says when a run happened and what it spent.
 */
import { MICROCENTS_PER_USD, formatUsd } from './pricing';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** Credit that lasts less than this at the workflow's pace is worth a warning. */
export const RUNWAY_WARN_DAYS = 7;

/** Runs within this span of each other share one bucket of the pace record. */
export const PACE_BUCKET_MS = 3 * HOUR_MS;

/**
 * Buckets kept: about the last day of a workflow that runs every few minutes, the last eight
 * runs of one that runs daily. The record stays a few hundred bytes whatever the schedule.
 */
export const PACE_BUCKETS = 8;

/**
 * The span a pace is measured over counts as at least this long: two runs seconds apart (a burst
 * of webhooks, two tries from the command line) count as four runs a day, not thousands, while a
 * new workflow that runs every few minutes is measured at its real pace within a few hours.
 */
export const MIN_PACE_SPAN_MS = 6 * HOUR_MS;

/**
 * What a workflow spent, and when, as plain JSON for static data. It covers the spend after
 * `sinceMs`: the first run only marks the start (what it spent belongs to a time before the
 * record), and when the oldest bucket is dropped its end becomes the start.
 */
export interface PaceRecord {
	sinceMs: number;
	/** `[endMs, spentMicrocents]`, oldest first: the spend of the runs after the previous end, up to `endMs`. */
	buckets: Array<[number, number]>;
}

function isCount(value: unknown): value is number {
	return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A stored record as it was written, or undefined (nothing stored, or something else there): the record starts over. */
export function readPaceRecord(value: unknown): PaceRecord | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const { sinceMs, buckets } = value as Partial<PaceRecord>;
	if (!isCount(sinceMs) || !Array.isArray(buckets) || buckets.length > PACE_BUCKETS) return undefined;
	let previous = sinceMs;
	for (const bucket of buckets) {
		if (!Array.isArray(bucket) || bucket.length !== 2 || !isCount(bucket[0]) || !isCount(bucket[1]) || bucket[0] < previous) return undefined;
		previous = bucket[0];
	}
	return { sinceMs, buckets: buckets.map(([end, spent]) => [end, spent]) };
}

/** The record with one more run: at `atMs`, spending `spentMicrocents`. Returns a new record. */
export function recordSpend(record: PaceRecord | undefined, atMs: number, spentMicrocents: number): PaceRecord {
	const spent = Math.max(0, Math.round(spentMicrocents));
	if (!record) return { sinceMs: Math.max(0, Math.round(atMs)), buckets: [] };
	const buckets = record.buckets.map(([end, total]): [number, number] => [end, total]);
	const newest = buckets[buckets.length - 1];
	// A clock set back must not put a run before the ones already kept.
	const at = Math.max(Math.round(atMs), newest ? newest[0] : record.sinceMs);
	const newestStart = buckets.length > 1 ? buckets[buckets.length - 2][0] : record.sinceMs;
	if (newest && at - newestStart < PACE_BUCKET_MS) {
		newest[0] = at;
		newest[1] += spent;
		return { sinceMs: record.sinceMs, buckets };
	}
	buckets.push([at, spent]);
	let sinceMs = record.sinceMs;
	while (buckets.length > PACE_BUCKETS) sinceMs = buckets.shift()![0];
	return { sinceMs, buckets };
}

/**
 * Microcents a day the workflow spends, from its record up to the last run recorded; undefined
 * while the record holds a single run (no pace yet).
 */
export function spendPerDay(record: PaceRecord | undefined): number | undefined {
	if (!record || record.buckets.length === 0) return undefined;
	const endMs = record.buckets[record.buckets.length - 1][0];
	const spanMs = Math.max(endMs - record.sinceMs, MIN_PACE_SPAN_MS);
	const spent = record.buckets.reduce((sum, [, microcents]) => sum + microcents, 0);
	return (spent / spanMs) * DAY_MS;
}

/** How far the credit left goes. */
export interface Runway {
	remainingMicrocents: number;
	/** What the run just done spent. */
	runMicrocents: number;
	/** Whole runs like that one the credit left pays for; undefined when the run spent nothing. */
	runsLeft?: number;
	/** The workflow's pace; undefined without one. */
	perDayMicrocents?: number;
	/** Days the credit left lasts at that pace; undefined without a pace, or at a pace of nothing. */
	daysLeft?: number;
}

export function runwayOf(input: { remainingMicrocents: number; runMicrocents: number; perDayMicrocents?: number }): Runway {
	const remainingMicrocents = Math.max(0, input.remainingMicrocents);
	const runMicrocents = Math.max(0, input.runMicrocents);
	const runway: Runway = { remainingMicrocents, runMicrocents };
	if (runMicrocents > 0) runway.runsLeft = Math.floor(remainingMicrocents / runMicrocents);
	if (input.perDayMicrocents !== undefined) {
		runway.perDayMicrocents = input.perDayMicrocents;
		if (input.perDayMicrocents > 0) runway.daysLeft = remainingMicrocents / input.perDayMicrocents;
	}
	return runway;
}

export type RunwayReason = 'nextRun' | 'week' | 'threshold';

/**
 * Why the credit left deserves a warning, or undefined: it does not pay for another run like
 * this one (whatever the pace, the next run is refused), it lasts less than RUNWAY_WARN_DAYS at
 * the workflow's pace, or it is below `warnBelowMicrocents` (0: no threshold).
 */
export function runwayReason(runway: Runway, warnBelowMicrocents = 0): RunwayReason | undefined {
	if (runway.runsLeft !== undefined && runway.runsLeft < 1) return 'nextRun';
	if (runway.daysLeft !== undefined && runway.daysLeft < RUNWAY_WARN_DAYS) return 'week';
	if (warnBelowMicrocents > 0 && runway.remainingMicrocents < warnBelowMicrocents) return 'threshold';
	return undefined;
}

/** "about 2 days", "about 1 day", "about 5 hours", "less than an hour": rounded down. */
export function durationText(days: number): string {
	if (days >= 2) return `about ${Math.floor(days).toLocaleString('en-US')} days`;
	if (days >= 1) return 'about 1 day';
	const hours = Math.floor(days * 24);
	if (hours >= 1) return `about ${hours} hour${hours === 1 ? '' : 's'}`;
	return 'less than an hour';
}

export interface RunwayTextOptions {
	/** Where to top up, when known (the `upgradeUrl` of a 402 answer). */
	upgradeUrl?: string;
	/** What one run is called: "run" for the node, "poll" for the trigger. */
	unit?: string;
}

/**
 * "$0.42 left: about 3 more runs like this one, about 2 days at this workflow's pace; top up at
 * https://…". Without a pace only the runs are said; without spend in this run, only the pace;
 * when not even one more run is paid for, that alone (the pace no longer matters).
 */
export function runwaySentence(runway: Runway, { upgradeUrl, unit = 'run' }: RunwayTextOptions = {}): string {
	const parts: string[] = [];
	const short = runway.runsLeft !== undefined && runway.runsLeft < 1;
	if (short) parts.push(`not enough for another ${unit} like this one (${formatUsd(runway.runMicrocents)})`);
	else if (runway.runsLeft !== undefined) {
		parts.push(`about ${runway.runsLeft.toLocaleString('en-US')} more ${unit}${runway.runsLeft === 1 ? '' : 's'} like this one`);
	}
	if (runway.daysLeft !== undefined && !short) parts.push(`${durationText(runway.daysLeft)} at this workflow's pace`);
	const topUp = upgradeUrl ? `top up at ${upgradeUrl}` : 'top up or upgrade in your account dashboard';
	return `${formatUsd(runway.remainingMicrocents)} left${parts.length ? `: ${parts.join(', ')}` : ''}; ${topUp}`;
}

/** The warning to show or log, or undefined when the credit left needs none. */
export function runwayWarning(runway: Runway, options: RunwayTextOptions & { warnBelowMicrocents?: number } = {}): string | undefined {
	return runwayReason(runway, options.warnBelowMicrocents) ? runwaySentence(runway, options) : undefined;
}

/** What an output item can carry about the credit left (`creditLeft`): plain JSON. */
export interface CreditLeft {
	remainingMicrocents: number;
	remainingUsd: number;
	/** Runs (polls) like the last one the credit pays for; null when it spent nothing. */
	runsLeft: number | null;
	/** Days at the workflow's pace, to one decimal; null without a pace. */
	daysLeft: number | null;
	/** The warning sentence when one is due, else null. */
	warning: string | null;
}

export function creditLeftOf(runway: Runway, options: RunwayTextOptions & { warnBelowMicrocents?: number } = {}): CreditLeft {
	return {
		remainingMicrocents: runway.remainingMicrocents,
		remainingUsd: runway.remainingMicrocents / MICROCENTS_PER_USD,
		runsLeft: runway.runsLeft ?? null,
		daysLeft: runway.daysLeft === undefined ? null : Math.floor(runway.daysLeft * 10) / 10,
		warning: runwayWarning(runway, options) ?? null,
	};
}

/** "Warn Below Credit (USD)" as microcents: 0 (no threshold) for anything not a positive number. */
export function warnBelowMicrocents(usd: number): number {
	return Number.isFinite(usd) && usd > 0 ? Math.round(usd * MICROCENTS_PER_USD) : 0;
}

const MAX_URL_LENGTH = 300;

/**
 * The `upgradeUrl` of a 402 answer, if it is a plain https address: it is shown in a hint that
 * n8n renders as HTML, so nothing that could be markup or a script gets through.
 */
export function safeUpgradeUrl(value: unknown): string | undefined {
	if (typeof value !== 'string' || value.length > MAX_URL_LENGTH) return undefined;
	return /^https:\/\/[A-Za-z0-9.-]+(?::\d+)?(?:[/?#][^\s<>"'`\\]*)?$/.test(value) ? value : undefined;
}
