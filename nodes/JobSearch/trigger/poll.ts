import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { simplifyJob, withCallUsage } from '../output';
import { formatUsd } from '../service/pricing';
import { callTool, type SearchJobsData, type ToolResult, type ToolUsage } from '../transport';
import { DEFAULT_MAX_RETRY_WAIT_MS } from '../transport/tunables';
import { runCycle, type CycleOutcome } from './cycle';
import { asTriggerOutput } from './digest';
import { noMatchingJob } from './noMatch';
import type { FetchPage } from '../paging/reader';
import { readSettings, type TriggerSettings } from './settings';
import { GUARD_KEY, releaseGuard, takeGuard } from './pollLock';
import { readState, writeState } from './state';
import { MANUAL_SAMPLE_SIZE, POLL_BUDGET_SHARE } from './tunables';

function toItems(jobs: IDataObject[], settings: TriggerSettings, usage: ToolUsage | undefined): INodeExecutionData[] {
	const shown = settings.includeUsage ? usage : undefined;
	return withCallUsage(
		jobs.map((job) => (settings.simplify ? simplifyJob(job) : job)),
		shown,
	).map((json) => ({ json }));
}

/** "Fetch Test Event": a few recent matches to build the workflow with; the alert state stays as it was. */
async function sample(this: IPollFunctions, settings: TriggerSettings): Promise<INodeExecutionData[][] | null> {
	const body = { ...settings.filters, limit: MANUAL_SAMPLE_SIZE };
	const { data, usage } = await callTool.call(this, 'search_jobs', body);
	const jobs = (data as SearchJobsData).jobs;
	this.logger.info(`${prefix.call(this)} test: ${jobs.length} sample jobs, spent ${formatUsd(usage.consumedMicrocents)}`);
	if (jobs.length === 0) throw noMatchingJob(this.getNode(), settings.filters);
	return [asTriggerOutput.call(this, jobs, toItems(jobs, settings, usage))];
}

/** Log lines start with the workflow's name, so two alert workflows can be told apart. */
function prefix(this: IPollFunctions): string {
	const name = this.getWorkflow().name;
	return `Job Search Trigger [${name ? `workflow "${name}"` : `workflow ${this.getWorkflow().id ?? ''}`}]:`;
}

/** What the service made a poll wait: 429s waited out as asked, and backoffs after failures. */
interface Waits {
	rateLimited: number;
	ms: number;
}

function report(this: IPollFunctions, outcome: CycleOutcome, waits: Waits): void {
	const { reader } = outcome;
	const head = prefix.call(this);
	const parts = [
		`${outcome.emit.length} new jobs`,
		`${reader.rows} rows in ${reader.requests} request${reader.requests === 1 ? '' : 's'}`,
		`spent ${formatUsd(reader.consumedMicrocents)} (${reader.consumedMicrocents} microcents)`,
	];
	if (reader.remainingMicrocents !== undefined) parts.push(`${formatUsd(reader.remainingMicrocents)} left`);
	if (outcome.late > 0) parts.push(`${outcome.late} of them shown late by the index`);
	if (waits.ms > 0) {
		const why = waits.rateLimited > 0 ? `${waits.rateLimited} rate limit${waits.rateLimited === 1 ? '' : 's'} (429) waited out` : 'retries';
		parts.push(`waited ${(waits.ms / 1000).toFixed(1)} s for ${why}`);
	}
	if (outcome.swept && !outcome.firstPoll) parts.push('late-job sweep done');
	if (outcome.firstPoll) parts.push(outcome.emit.length ? 'first poll' : 'first poll: learned the Late Window, nothing sent');
	if (outcome.state.gap && !reader.interruptedBy) {
		parts.push(
			`poll budget reached: jobs from ${new Date(outcome.state.gap.fromMs).toISOString()} to ${new Date(outcome.state.gap.toMs).toISOString()} follow on the next polls`,
		);
	}
	this.logger.info(`${head} ${parts.join('; ')}`);
	if (reader.interruptedBy) {
		this.logger.warn(
			`${head} a request failed after ${reader.requests} succeeded (${reader.interruptedBy.message}); the jobs read are sent and the rest follows on the next polls`,
		);
	}
	if (outcome.learnedFromMs !== undefined) {
		this.logger.warn(
			`${head} more matching jobs in the Late Window than one activation reads; jobs posted before ${new Date(outcome.learnedFromMs).toISOString()} that the index shows late are not sent`,
		);
	}
	for (const warning of reader.warnings) this.logger.warn(`${head} ${warning}`);
	if (outcome.capped > 0) {
		this.logger.warn(
			`${head} more jobs inside the Late Window than it can remember; ${outcome.capped} of the oldest were forgotten and their part of the window is not checked again`,
		);
	}
}

/**
 * One poll. It takes the poll guard first: a poll that finds another still running (n8n does not
 * wait for one before starting the next) sends nothing and changes nothing. Every request and
 * every retry wait ends within the poll's time. The state is written only once the poll's reading
 * is over: a poll whose first request fails (rate limit, outage, no credit, bad key) throws and
 * leaves the state as it was, so the next good poll delivers what this one missed. A request that
 * fails after others succeeded ends the poll like a spent budget: the paid-for jobs go out and the
 * unread rest is kept for the next polls, so nothing is paid for twice.
 */
export async function poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings.call(this);
	if (this.getMode() === 'manual') return await sample.call(this, settings);

	const staticData = this.getWorkflowStaticData('node');
	const startMs = Date.now();
	const { budgetMs } = settings.cycle;
	const guard = takeGuard(staticData, startMs, budgetMs);
	if (!('id' in guard)) {
		this.logger.info(
			`${prefix.call(this)} the poll that started at ${new Date(guard.heldSinceMs).toISOString()} is still running; this one sends nothing and the next one carries on`,
		);
		return null;
	}
	try {
		const deadlineMs = startMs + budgetMs;
		const maxRetryWaitMs = Math.min(DEFAULT_MAX_RETRY_WAIT_MS, budgetMs * POLL_BUDGET_SHARE);
		const waits: Waits = { rateLimited: 0, ms: 0 };
		const onWait = (waitMs: number, status: number | undefined) => {
			waits.ms += waitMs;
			if (status === 429) waits.rateLimited++;
		};
		const fetchPage: FetchPage = async ({ fromMs, toMs, limit }) => {
			const body: IDataObject = { ...settings.filters, fromDate: new Date(fromMs).toISOString(), limit };
			if (toMs !== undefined) body.toDate = new Date(toMs).toISOString();
			// The transport refuses a search answer without data.jobs and an integer data.total.
			const { data, usage } = (await callTool.call(this, 'search_jobs', body, { maxRetryWaitMs, deadlineMs, onWait })) as ToolResult<SearchJobsData>;
			const { jobs, total } = data;
			return { jobs, total, ...usage };
		};

		const outcome = await runCycle(readState(staticData), settings.cycle, fetchPage, () => Date.now());
		writeState(staticData, outcome.state, [GUARD_KEY]);
		report.call(this, outcome, waits);

		if (outcome.emit.length === 0) return null;
		const usage = {
			consumedMicrocents: outcome.reader.consumedMicrocents,
			remainingMicrocents: outcome.reader.remainingMicrocents ?? 0,
		};
		return [asTriggerOutput.call(this, outcome.emit, toItems(outcome.emit, settings, usage))];
	} finally {
		releaseGuard(staticData, guard);
	}
}
