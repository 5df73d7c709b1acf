import type { IDataObject, INode } from 'n8n-workflow';

import { MAX_ROWS_PER_CALL } from '../../filters';
import { PRICE_MICROCENTS } from '../../service/pricing';
import { Reader, TimeBoundIgnored, type FetchPage } from '../../paging/reader';
import { operationError, type SearchJobsData, type ToolResult, type ToolUsage } from '../../transport';
import { itemSuffix } from '../../transport/errors';
import type { ItemRun } from '../common/types';

/** What Return All read: every job once, in the service's order. */
export interface Walk {
	jobs: IDataObject[];
	/** The first page's `total` (every match when the walk began), or more if more were read. */
	total: number;
	/** Summed over the pages; what is left after the last one. */
	usage: ToolUsage;
	/** The failure that stopped the walk after its first page; the jobs read so far are paid for. */
	interruptedBy?: Error;
	warnings: string[];
}

/**
 * Return All past the service's 10,000 rows per call: the search is read newest first, and each
 * further page asks for the same search with `toDate` = the oldest createdAt already read. The
 * shared Reader re-reads the jobs of that inclusive boundary and drops them by uid, and stops at
 * the first page that holds every match up to its `toDate` (its own `total`). Every page goes
 * through `run.call`, so the execution's Max Credit is checked before each one (for no more rows
 * than are left), and no page asks for more rows than the cap has left unspent.
 */
export async function walkBackThroughTime(run: ItemRun, body: IDataObject, node: INode): Promise<Walk> {
	let total: number | undefined;
	const fetchPage: FetchPage = async ({ toMs, limit }) => {
		const page: IDataObject = { ...body, limit };
		// The user's own toDate is never earlier than a job already read, so this only narrows.
		if (toMs !== undefined) page.toDate = new Date(toMs).toISOString();
		const { data, usage } = (await run.call('search_jobs', page)) as ToolResult<SearchJobsData>;
		total ??= data.total;
		return { jobs: data.jobs, total: data.total, ...usage };
	};
	// Pages no bigger than what Max Credit has left unspent: under a small cap a search with few
	// matches still runs (its first page is checked for what it may cost, not for 10,000 rows).
	// Other items' reservations are left out: they settle when their answers come, and a page
	// that does not fit beside them fails the cap check with its clear error, not a tiny page.
	const rowsPerRequest = (): number =>
		Math.max(1, Math.min(MAX_ROWS_PER_CALL, Math.floor(run.creditUnspentMicrocents() / PRICE_MICROCENTS.search_jobs)));
	const reader = new Reader(fetchPage, {
		rowsPerRequest,
		maxRows: Number.POSITIVE_INFINITY,
		deadlineMs: Number.POSITIVE_INFINITY,
		now: () => Date.now(),
	});
	// The body's own searchPeriod, fromDate and toDate bound the window; the Reader only moves toDate.
	// searchPeriod is counted back from the service's clock at each page, so a job that ages out of
	// the period before its page is read is not returned: it has left the window the user asked for.
	await reader.readRange({ fromMs: Number.NEGATIVE_INFINITY });
	const jobs: IDataObject[] = [];
	for (const { job } of reader.jobs.values()) jobs.push(job);
	return {
		jobs,
		// Jobs the index showed mid-walk are read too, so there may be more than the first total.
		total: Math.max(total ?? 0, jobs.length),
		usage: { consumedMicrocents: reader.consumedMicrocents, remainingMicrocents: reader.remainingMicrocents ?? 0 },
		interruptedBy: reader.interruptedBy instanceof TimeBoundIgnored ? timeBoundError(node, reader.interruptedBy, run.itemIndex) : reader.interruptedBy,
		warnings: reader.warnings,
	};
}

/** A host that ignores toDate would sell the newest page again and again: the walk stops after one such page. */
function timeBoundError(node: INode, reason: TimeBoundIgnored, itemIndex: number): Error {
	return operationError(node, 'invalid_response', `Return All stopped: ${reason.message}${itemSuffix(itemIndex)}`, {
		itemIndex,
		description:
			'Each further page asks for the jobs older than the last one read; a host that answers with the same newest jobs would bill them again on every page. Check that the Base URL in the credential is the service\'s REST address, not a proxy or another API.',
	});
}
