import { NodeApiError, NodeOperationError, sleep, type IDataObject, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';

import type { FetchPage } from '../paging/reader';
import { formatUsd } from '../service/pricing';
import { callTool, operationError, type SearchJobsData, type ToolResult } from '../transport';
import { runCycle } from './cycle';
import { classifyFailure, failureToReport } from './failures';
import { triggerItems } from './items';
import { noMatchingJob } from './noMatch';
import { LOCK_KEY, releaseLock, takeLock } from './pollLock';
import { logPrefix, report } from './report';
import { readSettings, type TriggerSettings } from './settings';
import { readState, writeState, type TriggerState } from './state';
import { MANUAL_SAMPLE_SIZE, POLL_TIME_SHARE } from './tunables';

/** Retries of a 5xx or a dropped connection inside one request; a 429 is never waited out in a poll. */
const POLL_REQUEST_RETRIES = 2;

/** "Fetch Test Event": a few recent matches to build the workflow with; the alert state stays as it was. */
async function sample(this: IPollFunctions, settings: TriggerSettings): Promise<INodeExecutionData[][] | null> {
	const body = { ...settings.filters, limit: MANUAL_SAMPLE_SIZE };
	const { data, usage } = await callTool.call(this, 'search_jobs', body);
	const jobs = (data as SearchJobsData).jobs;
	this.logger.info(`${logPrefix.call(this)} test: ${jobs.length} sample jobs, spent ${formatUsd(usage.consumedMicrocents)}`);
	if (jobs.length === 0) throw noMatchingJob(this.getNode(), settings.filters);
	return [triggerItems(jobs, { simplify: settings.simplify, output: settings.output, ...(settings.includeUsage ? { usage } : {}) })];
}

/**
 * One poll: the n8n side of the cycle. It takes the poll lock first (n8n does not wait for one poll
 * before starting the next; a poll that finds the lock taken sends nothing and changes nothing),
 * runs the cycle against the service within the poll's time and request budget, keeps the state,
 * and hands over the new jobs. A passing failure (429, 5xx, timeout) fails no execution and does
 * not refuse the activation: the poll sends what it read and the next one carries on.
 */
export async function poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings.call(this);
	if (this.getMode() === 'manual') return await sample.call(this, settings);

	const staticData = this.getWorkflowStaticData('node');
	const startMs = Date.now();
	const { pollTimeMs } = settings.cycle;
	const lock = takeLock(staticData, startMs, pollTimeMs);
	if (!('id' in lock)) {
		this.logger.info(
			`${logPrefix.call(this)} the poll that started at ${new Date(lock.heldSinceMs).toISOString()} is still running; this one sends nothing and the next one carries on`,
		);
		return null;
	}
	try {
		const deadlineMs = startMs + pollTimeMs * POLL_TIME_SHARE;
		const fetchPage: FetchPage = async ({ fromMs, toMs, limit }) => {
			const body: IDataObject = { ...settings.filters, fromDate: new Date(fromMs).toISOString(), limit };
			if (toMs !== undefined) body.toDate = new Date(toMs).toISOString();
			// The transport refuses a search answer without data.jobs and an integer data.total.
			const { data, usage } = (await callTool.call(this, 'search_jobs', body, {
				maxRetries: POLL_REQUEST_RETRIES,
				maxRetryWaitMs: pollTimeMs * POLL_TIME_SHARE,
				deadlineMs,
				waitOnRateLimit: false,
			})) as ToolResult<SearchJobsData>;
			return { jobs: data.jobs, total: data.total, ...usage };
		};
		const previous: TriggerState | undefined = readState(staticData);
		const outcome = await runCycle(previous, settings.cycle, {
			fetchPage,
			now: () => Date.now(),
			sleep: async (ms) => await sleep(ms),
			classify: classifyFailure,
		});
		const reported = failureToReport(outcome, Date.now());
		writeState(staticData, outcome.state, [LOCK_KEY]);
		report.call(this, outcome);
		if (reported instanceof NodeApiError || reported instanceof NodeOperationError) throw reported;
		if (reported) {
			// The Reader's own verdict: a host that answers outside the time bound asked for.
			throw operationError(this.getNode(), 'invalid_response', `The alert stopped: ${reported.message}`, {
				description:
					"Each request asks for the jobs of one stretch of time; a host that answers with other jobs would bill them again on every poll. Check that the Base URL in the credential is the service's REST address, not a proxy or another API.",
			});
		}
		if (outcome.emit.length === 0) return null;
		const usage = settings.includeUsage
			? { consumedMicrocents: outcome.reader.consumedMicrocents, remainingMicrocents: outcome.reader.remainingMicrocents ?? 0 }
			: undefined;
		return [triggerItems(outcome.emit, { simplify: settings.simplify, output: settings.output, ...(usage ? { usage } : {}) })];
	} finally {
		releaseLock(staticData, lock);
	}
}
