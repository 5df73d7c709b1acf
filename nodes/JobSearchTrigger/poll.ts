import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { simplifyJob, withUsage } from '../JobSearch/output';
import { formatUsd } from '../JobSearch/pricing';
import { callTool, type ToolUsage } from '../JobSearch/transport';
import { DEFAULT_MAX_RETRY_WAIT_MS } from '../JobSearch/transport/tunables';
import { runCycle, type CycleOutcome } from './cycle';
import type { FetchPage } from './pager';
import { readSettings, type TriggerSettings } from './settings';
import { readState, writeState } from './state';
import { MANUAL_SAMPLE_SIZE, POLL_BUDGET_SHARE } from './tunables';

interface SearchData {
	jobs?: IDataObject[];
	total?: number;
}

function toItems(jobs: IDataObject[], settings: TriggerSettings, usage: ToolUsage | undefined): INodeExecutionData[] {
	const shown = settings.includeUsage ? usage : undefined;
	return jobs.map((job) => ({ json: withUsage(settings.simplify ? simplifyJob(job) : job, shown) }));
}

/** "Fetch Test Event": a few recent matches to build the workflow with; the alert state stays as it was. */
async function sample(this: IPollFunctions, settings: TriggerSettings): Promise<INodeExecutionData[][] | null> {
	const body = { ...settings.filters, limit: MANUAL_SAMPLE_SIZE };
	const { data, usage } = await callTool.call(this, 'search_jobs', body);
	const jobs = (data as SearchData).jobs ?? [];
	this.logger.info(`Job Search Trigger test: ${jobs.length} sample jobs, spent ${formatUsd(usage.consumedMicrocents)}`);
	return jobs.length > 0 ? [toItems(jobs, settings, usage)] : null;
}

function report(this: IPollFunctions, outcome: CycleOutcome): void {
	const { read } = outcome;
	const parts = [
		`${outcome.emit.length} new jobs`,
		`${read.rows} rows in ${read.requests} request${read.requests === 1 ? '' : 's'} (${outcome.overlapReReads} overlap re-reads, ${outcome.boundaryReReads} page-boundary re-reads)`,
		`spent ${formatUsd(read.consumedMicrocents)} (${read.consumedMicrocents} microcents)`,
	];
	if (read.remainingMicrocents !== undefined) parts.push(`${formatUsd(read.remainingMicrocents)} left`);
	if (outcome.firstPoll) parts.push(outcome.emit.length ? 'first poll' : 'first poll: cursor set, nothing sent');
	if (outcome.state.gap && !read.interruptedBy) {
		parts.push(
			`poll budget reached: jobs from ${new Date(outcome.state.gap.fromMs).toISOString()} to ${new Date(outcome.state.gap.toMs).toISOString()} follow on the next polls`,
		);
	}
	this.logger.info(`Job Search Trigger: ${parts.join('; ')}`);
	if (read.interruptedBy) {
		this.logger.warn(
			`Job Search Trigger: a request failed after ${read.requests} succeeded (${read.interruptedBy.message}); the jobs read are sent and the rest follows on the next polls`,
		);
	}
	for (const warning of read.warnings) this.logger.warn(`Job Search Trigger: ${warning}`);
	if (outcome.capped > 0) {
		this.logger.warn(
			`Job Search Trigger: more jobs inside the Overlap Window than it can remember; ${outcome.capped} of the oldest were forgotten and their part of the window is not read again`,
		);
	}
}

/**
 * One poll. The state is written only once the poll's reading is over: a poll whose first
 * request fails (rate limit, outage, no credit, bad key) throws and leaves the watermark and
 * seen set as they were, so the next good poll delivers what this one missed. A request that
 * fails after others succeeded ends the poll like a spent budget: the paid-for jobs go out and
 * the unread rest is kept for the next polls, so nothing is paid for twice.
 */
export async function poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings.call(this);
	if (this.getMode() === 'manual') return await sample.call(this, settings);

	const maxRetryWaitMs = Math.min(DEFAULT_MAX_RETRY_WAIT_MS, settings.cycle.budgetMs * POLL_BUDGET_SHARE);
	const fetchPage: FetchPage = async ({ fromMs, toMs, limit }) => {
		const body: IDataObject = { ...settings.filters, fromDate: new Date(fromMs).toISOString(), limit };
		if (toMs !== undefined) body.toDate = new Date(toMs).toISOString();
		const { data, usage } = await callTool.call(this, 'search_jobs', body, { maxRetryWaitMs });
		return { jobs: (data as SearchData).jobs ?? [], ...usage };
	};

	const staticData = this.getWorkflowStaticData('node');
	const outcome = await runCycle(readState(staticData), settings.cycle, fetchPage, () => Date.now());
	writeState(staticData, outcome.state);
	report.call(this, outcome);

	if (outcome.emit.length === 0) return null;
	const usage = {
		consumedMicrocents: outcome.read.consumedMicrocents,
		remainingMicrocents: outcome.read.remainingMicrocents ?? 0,
	};
	return [toItems(outcome.emit, settings, usage)];
}
