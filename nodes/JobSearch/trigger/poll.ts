import { NodeApiError, NodeOperationError, sleep, type IDataObject, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';

import { triggerItems, type ItemSettings } from '../output/triggerItems';
import type { FetchPage } from '../paging/reader';
import { PACE_KEY, WARNED_KEY, creditAfterPoll } from '../service/creditPace';
import { formatUsd } from '../service/pricing';
import { callTool, operationError, type SearchJobsData, type ToolResult } from '../transport';
import { runSearches } from './cycle';
import { noMatchingJob } from './noMatch';
import { LOCK_KEY, releaseLock, takeLock } from './pollLock';
import { classifyFailure, failureToReport, logPrefix, report } from './report';
import { readSettings, type TriggerSettings } from './settings';
import { jobsByUid } from './searches';
import { isDropped, readState, writeState } from './state';
import { MANUAL_SAMPLE_SIZE } from './description';
import { POLL_TIME_SHARE } from './tunables';

/** The items of `jobs`; with several searches each names the searches that found it (`foundBy`: uid → the searches' keys). */
function itemsOf(settings: TriggerSettings, jobs: IDataObject[], foundBy: Map<string, string[]>, paid: Pick<ItemSettings, 'usage' | 'creditLeft'>) {
	const names = new Map(settings.searches.map((search) => [search.key, search.names]));
	const named = settings.named ? { foundBy: (uid: string) => (foundBy.get(uid) ?? []).flatMap((key) => names.get(key) ?? []) } : {};
	return [triggerItems(jobs, { simplify: settings.simplify, output: settings.output, ...paid, ...named })];
}

/** "Fetch Test Event": a few recent matches of each search to build the workflow with; the alert state stays as it was. */
async function sample(this: IPollFunctions, settings: TriggerSettings): Promise<INodeExecutionData[][] | null> {
	const found: { key: string; jobs: IDataObject[] }[] = [];
	let consumedMicrocents = 0;
	let remainingMicrocents = 0;
	for (const search of settings.searches) {
		const { data, usage } = await callTool.call(this, 'search_jobs', { ...search.filters, limit: MANUAL_SAMPLE_SIZE });
		consumedMicrocents += usage.consumedMicrocents;
		remainingMicrocents = usage.remainingMicrocents;
		found.push({ key: search.key, jobs: (data as SearchJobsData).jobs });
	}
	const byUid = jobsByUid(found, (job) => String(job.uid));
	const jobs = [...byUid.values()].map((entry) => entry.job).sort((a, b) => Date.parse(String(b.createdAt)) - Date.parse(String(a.createdAt)));
	this.logger.info(`${logPrefix.call(this)} test: ${jobs.length} sample jobs, spent ${formatUsd(consumedMicrocents)}`);
	if (jobs.length === 0) throw noMatchingJob(this.getNode(), settings.searches, settings.named);
	const usage = settings.includeUsage ? { consumedMicrocents, remainingMicrocents } : undefined;
	return itemsOf(settings, jobs, new Map([...byUid].map(([uid, entry]) => [uid, entry.keys])), { usage });
}

/** One poll, the n8n side of the cycle: under the poll lock (n8n starts the next poll without waiting), a passing failure fails nothing. */
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
		// The 429s answered: the log line says how many were waited out (the e2e storm check reads it).
		let rateLimited = 0;
		const fetchFor =
			(filters: IDataObject): FetchPage =>
			async ({ fromMs, toMs, limit }) => {
				const body: IDataObject = { ...filters, fromDate: new Date(fromMs).toISOString(), limit };
				if (toMs !== undefined) body.toDate = new Date(toMs).toISOString();
				// The transport refuses an answer without data.jobs and an integer data.total; its errors pass on as they are.
				const { data, usage } = (await callTool
					.call(this, 'search_jobs', body, {
						// No retry inside a request: every request, a retry too, takes a place in the request budget.
						maxRetries: 0,
						maxRetryWaitMs: pollTimeMs * POLL_TIME_SHARE,
						// The request budget sends none past its share of the poll (requests.ts): the transport's own stop is the
						// poll's end, or a request the budget let go just before its deadline (reckoned a few ms later) would fail.
						deadlineMs: startMs + pollTimeMs,
						waitOnRateLimit: false,
					})
					.catch((error: Error) => {
						if (classifyFailure(error).kind === 'rate-limited') rateLimited++;
						throw error;
					})) as ToolResult<SearchJobsData>;
				return { jobs: data.jobs, total: data.total, ...usage };
			};
		const searches = settings.searches.map((search) => ({ key: search.key, fetchPage: fetchFor(search.filters) }));
		const previous = readState(staticData);
		if (isDropped(previous)) {
			this.logger.warn(
				`${logPrefix.call(this)} its saved state could not be read (saved by another version, or damaged): it starts over, skipping jobs it had not sent yet rather than risk sending one twice`,
			);
		}
		const outcome = await runSearches(previous, searches, settings.cycle, {
			now: () => Date.now(),
			sleep: async (ms) => await sleep(ms),
			classify: classifyFailure,
		});
		const reported = failureToReport(outcome, Date.now());
		writeState(staticData, outcome.state, [LOCK_KEY, PACE_KEY, WARNED_KEY]);
		const names = new Map(settings.named ? settings.searches.map((s) => [s.key, s.names]) : []);
		report.call(this, outcome, { rateLimited, names });
		const { consumedMicrocents, remainingMicrocents } = outcome.reader;
		const credit = remainingMicrocents === undefined ? undefined : creditAfterPoll(staticData, Date.now(), consumedMicrocents, remainingMicrocents);
		if (credit?.warnNow) this.logger.warn(`${logPrefix.call(this)} credit runs short: ${credit.warnNow}`);
		if (reported) {
			const error = reported instanceof NodeApiError || reported instanceof NodeOperationError ? reported : operationError(this.getNode(), 'invalid_response', reported.message);
			// With several searches, the failed execution says which one, unless all met it (the key, the service down).
			const search = outcome.failure!.everySearch ? undefined : names.get(outcome.failure!.key);
			if (search) error.message = `Search "${search.join('", "')}": ${error.message}`;
			throw error;
		}
		if (outcome.emit.length === 0) return null;
		const usage = { consumedMicrocents, remainingMicrocents: remainingMicrocents ?? 0 };
		return itemsOf(settings, outcome.emit, outcome.foundBy, settings.includeUsage ? { usage, creditLeft: credit?.creditLeft } : {});
	} finally {
		releaseLock(staticData, lock);
	}
}
