import type { IPollFunctions } from 'n8n-workflow';

import { formatUsd } from '../service/pricing';
import type { CycleOutcome } from './cycle';

/** Log lines start with the workflow's name, so two alert workflows can be told apart. */
export function logPrefix(this: IPollFunctions): string {
	const name = this.getWorkflow().name;
	return `Job Search Trigger [${name ? `workflow "${name}"` : `workflow ${this.getWorkflow().id ?? ''}`}]:`;
}

const at = (ms: number) => new Date(ms).toISOString();

/** What the poll's requests met that the outcome does not say. */
export interface PollEvents {
	/** 429s answered to the poll's requests, the one that ended its reading included. */
	rateLimited: number;
}

/** One line per poll: what it sent, read, paid and waited for, and anything the user should know. */
export function report(this: IPollFunctions, outcome: CycleOutcome, events: PollEvents = { rateLimited: 0 }): void {
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
	const pausedUntilMs = budget.pausedUntilMs();
	if (reader.requests === 0 && !outcome.failure) {
		parts.push(pausedUntilMs > Date.now() ? `paused until ${at(pausedUntilMs)} as the service asked` : 'no request left in this minute\'s budget (Requests per Minute)');
	}
	this.logger.info(`${head} ${parts.join('; ')}`);
	const failure = outcome.failure;
	if (failure && failure.kind.kind !== 'lasting') {
		const what = failure.kind.kind === 'rate-limited' ? 'the service is rate limiting this key' : 'the service did not answer properly';
		this.logger.warn(
			`${head} ${what} (${failure.error.message}); the jobs read are sent, the rest follows on the next polls${pausedUntilMs > Date.now() ? ` from ${at(pausedUntilMs)}` : ''}`,
		);
	}
	for (const warning of reader.warnings) this.logger.warn(`${head} ${warning}`);
	if (outcome.capped > 0) {
		this.logger.warn(
			`${head} more jobs inside the Late Window than it can remember; ${outcome.capped} of the oldest were forgotten and their part of the window is not checked again`,
		);
	}
}
