import type { IPollFunctions } from 'n8n-workflow';

import { formatUsd } from '../service/pricing';
import { errorDetails } from '../transport';
import { FALLBACK_RETRY_AFTER_MS } from '../transport/tunables';
import type { CycleOutcome, FailureKind } from './cycle';
import type { Trouble } from './state';
import { TROUBLE_REPORT_AFTER_MS } from './tunables';

/** A 429 waits as the service asks, a passing fault (5xx, timeout, an answer not the service's) is ridden out, the rest is reported now. */
export function classifyFailure(error: Error): FailureKind {
	const cause = (error as { failure?: { cause?: string } }).failure?.cause;
	const details = errorDetails(error);
	if (cause === 'rate-limited') return { kind: 'rate-limited', retryAfterMs: details.retryAfterMs ?? FALLBACK_RETRY_AFTER_MS };
	if (cause === 'temporarily-unavailable' || details.error_code === 'poll_time_spent') return { kind: 'passing' };
	// The key, its credit or the Base URL (a redirect, no such tool, no POST there) would fail every search alike.
	const ofCredential = cause === 'credential-invalid' || cause === 'quota-exhausted' || details.error_code === 'redirected' || [404, 405].includes(details.httpCode ?? 0);
	return ofCredential ? { kind: 'lasting', ofCredential } : { kind: 'lasting' };
}

/** The error this poll fails with: a lasting one that left nothing to send; passing ones once they lasted, at most once a period (no flood). */
export function failureToReport(outcome: CycleOutcome, nowMs: number): Error | undefined {
	const failure = outcome.failure;
	// Failing the poll would drop the jobs it read: a poll with jobs to send says it in the log (report) instead.
	if (!failure || outcome.emit.length > 0) return undefined;
	if (failure.kind.kind === 'lasting') return failure.error;
	// The service failing every search, or (several searches) this search's own query: one report a period for both.
	const { trouble, searches } = outcome.state;
	const due = (t?: Trouble) => t !== undefined && nowMs - t.sinceMs >= TROUBLE_REPORT_AFTER_MS && (t.reportedMs === undefined || nowMs - t.reportedMs >= TROUBLE_REPORT_AFTER_MS);
	if (!due(trouble) && !(failure.kind.kind === 'passing' && due(searches[failure.key]?.trouble))) return undefined;
	for (const t of [trouble, ...Object.values(searches).map((s) => s.trouble)]) if (t) t.reportedMs = nowMs;
	return failure.error;
}

/** Log lines start with the workflow's name, so two alert workflows can be told apart. */
export function logPrefix(this: IPollFunctions): string {
	const name = this.getWorkflow().name;
	return `Job Search Trigger [${name ? `workflow "${name}"` : `workflow ${this.getWorkflow().id ?? ''}`}]:`;
}

const at = (ms: number) => new Date(ms).toISOString();

/**
 * One line per poll: what it sent, read, paid and waited for (`rateLimited`: the 429s its requests met), and what the user
 * should know; `names` (Several Searches) says which search a failure met.
 */
export function report(this: IPollFunctions, outcome: CycleOutcome, events: { rateLimited: number; names: Map<string, string[]> }): void {
	const { reader, budget } = outcome;
	const head = logPrefix.call(this);
	const parts = [
		`${outcome.emit.length} new jobs`,
		`${reader.rows} rows in ${reader.requests} request${reader.requests === 1 ? '' : 's'}`,
		`spent ${formatUsd(reader.consumedMicrocents)} (${reader.consumedMicrocents} microcents)`,
	];
	if (reader.remainingMicrocents !== undefined) parts.push(`${formatUsd(reader.remainingMicrocents)} left`);
	if (outcome.late > 0) parts.push(`${outcome.late} of them shown late by the index`);
	if (outcome.reposts > 0) parts.push(`${outcome.reposts} known job${outcome.reposts === 1 ? '' : 's'} posted again (not sent again)`);
	if (budget.waitedMs > 0) parts.push(`waited ${(budget.waitedMs / 1000).toFixed(1)} s for the rate window`);
	const waitedOut = events.rateLimited - (outcome.failure?.kind.kind === 'rate-limited' ? 1 : 0);
	if (waitedOut > 0) parts.push(`${waitedOut} rate limit${waitedOut === 1 ? '' : 's'} (429) waited out`);
	const unread = Object.values(outcome.state.searches).every((search) => !search.watch);
	if (outcome.firstPoll && unread) parts.push('first poll: nothing read yet (the next poll reads the Late Window), nothing sent');
	else if (outcome.firstPoll) parts.push(outcome.emit.length ? 'first poll' : 'first poll: learned the Late Window, nothing sent');
	if (outcome.learning && !outcome.firstPoll) parts.push('still reading the Late Window of activation');
	const { pausedUntilMs } = outcome.state.requests;
	if (reader.requests === 0 && !outcome.failure) {
		parts.push(
			pausedUntilMs > Date.now() ? `paused until ${at(pausedUntilMs)} as the service asked` : "no request left in this minute's budget (Requests per Minute)",
		);
	}
	this.logger.info(`${head} ${parts.join('; ')}`);
	const failure = outcome.failure;
	// With several searches, one that always fails would otherwise go unnoticed behind the jobs the others send.
	const search = failure && !failure.everySearch && events.names.get(failure.key);
	const which = search ? `search "${search.join('", "')}": ` : '';
	if (failure && failure.kind.kind !== 'lasting') {
		const what = failure.kind.kind === 'rate-limited' ? 'the service is rate limiting this key' : 'the service did not answer properly';
		this.logger.warn(
			`${head} ${which}${what} (${failure.error.message}); the jobs read are sent, the rest follows on the next polls${pausedUntilMs > Date.now() ? ` from ${at(pausedUntilMs)}` : ''}`,
		);
	} else if (failure && outcome.emit.length > 0) {
		this.logger.warn(`${head} ${which}${failure.error.message}; the jobs read are sent, and a poll that meets it with no job to send fails`);
	}
	for (const warning of reader.warnings) this.logger.warn(`${head} ${warning}`);
	if (outcome.capped > 0) {
		this.logger.warn(
			`${head} more jobs inside the Late Window than it can remember; ${outcome.capped} of the oldest were forgotten and their part of the window is not checked again`,
		);
	}
}
