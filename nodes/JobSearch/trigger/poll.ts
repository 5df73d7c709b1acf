import { NodeApiError, NodeOperationError, sleep, type IDataObject, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';

import { triggerItems } from '../output/triggerItems';
import type { FetchPage } from '../paging/reader';
import { PACE_KEY, WARNED_KEY, creditAfterPoll } from '../service/creditPace';
import { formatUsd } from '../service/pricing';
import { callTool, operationError, type SearchJobsData, type ToolResult } from '../transport';
import { runSearches } from './cycle';
import { classifyFailure, failureToReport } from './failures';
import { noMatchingJob } from './noMatch';
import { LOCK_KEY, releaseLock, takeLock } from './pollLock';
import { logPrefix, report } from './report';
import { readSettings, type TriggerSettings } from './settings';
import { readState, writeState, type TriggerState } from './state';
import { MANUAL_SAMPLE_SIZE, POLL_TIME_SHARE } from './tunables';

/** With several searches, items name the searches that found each job: their names, by the searches' keys. */
function namesOf(settings: TriggerSettings, foundBy: Map<string, string[]>): { foundBy?: (uid: string) => string[] } {
	if (!settings.named) return {};
	const names = new Map(settings.searches.map((search) => [search.key, search.names]));
	return { foundBy: (uid) => (foundBy.get(uid) ?? []).flatMap((key) => names.get(key) ?? []) };
}

/**
 * "Fetch Test Event": a few recent matches of each search to build the workflow with; the alert
 * state stays as it was.
 */
async function sample(this: IPollFunctions, settings: TriggerSettings): Promise<INodeExecutionData[][] | null> {
	const found = new Map<string, { job: IDataObject; keys: string[] }>();
	let consumedMicrocents = 0;
	let remainingMicrocents = 0;
	for (const search of settings.searches) {
		const { data, usage } = await callTool.call(this, 'search_jobs', { ...search.filters, limit: MANUAL_SAMPLE_SIZE });
		consumedMicrocents += usage.consumedMicrocents;
		remainingMicrocents = usage.remainingMicrocents;
		for (const job of (data as SearchJobsData).jobs) {
			const uid = String(job.uid);
			const entry = found.get(uid);
			if (entry) entry.keys.push(search.key);
			else found.set(uid, { job, keys: [search.key] });
		}
	}
	const jobs = [...found.values()].map((entry) => entry.job).sort((a, b) => Date.parse(String(b.createdAt)) - Date.parse(String(a.createdAt)));
	this.logger.info(`${logPrefix.call(this)} test: ${jobs.length} sample jobs, spent ${formatUsd(consumedMicrocents)}`);
	if (jobs.length === 0) throw noMatchingJob(this.getNode(), settings.searches[0].filters);
	const usage = settings.includeUsage ? { usage: { consumedMicrocents, remainingMicrocents } } : {};
	const foundBy = new Map([...found].map(([uid, entry]) => [uid, entry.keys]));
	return [triggerItems(jobs, { simplify: settings.simplify, output: settings.output, ...usage, ...namesOf(settings, foundBy) })];
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
		// The 429s the service answered: the cycle waits them out when the poll's time allows, and
		// the log line says how many it did (the e2e storm check reads it).
		let rateLimited = 0;
		const fetchFor =
			(filters: IDataObject): FetchPage =>
			async ({ fromMs, toMs, limit }) => {
				const body: IDataObject = { ...filters, fromDate: new Date(fromMs).toISOString(), limit };
				if (toMs !== undefined) body.toDate = new Date(toMs).toISOString();
				// The transport refuses a search answer without data.jobs and an integer data.total; its
				// errors are the node's own (NodeApiError), passed on as they are.
				const { data, usage } = (await callTool
					.call(this, 'search_jobs', body, {
						// No retry inside a request: every request, a retry too, takes a place in the request
						// budget (the cycle waits a 429 out; a 5xx ends the reading and the next poll carries on).
						maxRetries: 0,
						maxRetryWaitMs: pollTimeMs * POLL_TIME_SHARE,
						deadlineMs,
						answerByMs: startMs + pollTimeMs,
						waitOnRateLimit: false,
					})
					.catch((error: Error) => {
						if (classifyFailure(error).kind === 'rate-limited') rateLimited++;
						throw error;
					})) as ToolResult<SearchJobsData>;
				return { jobs: data.jobs, total: data.total, ...usage };
			};
		const previous: TriggerState | undefined = readState(staticData);
		const searches = settings.searches.map((search) => ({ key: search.key, fetchPage: fetchFor(search.filters) }));
		const outcome = await runSearches(previous, searches, settings.cycle, {
			fetchPage: searches[0].fetchPage,
			now: () => Date.now(),
			sleep: async (ms) => await sleep(ms),
			classify: classifyFailure,
		});
		const reported = failureToReport(outcome, Date.now());
		writeState(staticData, outcome.state, [LOCK_KEY, PACE_KEY, WARNED_KEY]);
		report.call(this, outcome, { rateLimited });
		const { consumedMicrocents, remainingMicrocents } = outcome.reader;
		const credit = remainingMicrocents === undefined ? undefined : creditAfterPoll(staticData, Date.now(), consumedMicrocents, remainingMicrocents);
		if (credit?.warnNow) this.logger.warn(`${logPrefix.call(this)} credit runs short: ${credit.warnNow}`);
		if (reported) throw reported instanceof NodeApiError || reported instanceof NodeOperationError ? reported : operationError(this.getNode(), 'invalid_response', reported.message);
		if (outcome.emit.length === 0) return null;
		const usage = settings.includeUsage ? { consumedMicrocents, remainingMicrocents: remainingMicrocents ?? 0 } : undefined;
		const creditLeft = settings.includeUsage && credit ? { creditLeft: credit.creditLeft } : {};
		return [
			triggerItems(outcome.emit, {
				simplify: settings.simplify,
				output: settings.output,
				...(usage ? { usage } : {}),
				...creditLeft,
				...namesOf(settings, outcome.foundBy),
			}),
		];
	} finally {
		releaseLock(staticData, lock);
	}
}
