import type { IDataObject, INode } from 'n8n-workflow';

import { MAX_ROWS_PER_CALL } from '../../filters';
import { PRICE_MICROCENTS, formatUsd } from '../../service/pricing';
import { Reader, TimeBoundIgnored, type FetchPage } from '../../paging/reader';
import { isExactTotal, totalInWords } from '../../transport/envelope';
import { operationError, type SearchJobsData, type ToolResult, type ToolUsage } from '../../transport';
import { itemSuffix } from '../../transport/errors';
import type { ItemRun } from '../common/types';

/**
 * Return All's first page under Max Credit: one job, for the search's total. Before it, what the
 * walk will cost is unknown; after it, a walk the cap cannot pay for is refused for one job's price.
 */
export const RETURN_ALL_FIRST_PAGE_UNDER_CAP = 1;

/** Refuses the next page when the jobs the first page counted cost more than the cap has left. */
function refuseIfOverCap(run: ItemRun, node: INode, total: number): void {
	const worst = total * PRICE_MICROCENTS.search_jobs;
	const unspent = run.creditUnspentMicrocents();
	if (worst <= unspent) return;
	throw operationError(
		node,
		'credit_cap_reached',
		`Return All stopped: the search matches ${totalInWords(total)} jobs, ${isExactTotal(total) ? 'up to ' : 'at least '}${formatUsd(worst)}, more than the ${formatUsd(unspent)} Max Credit per Execution has left${itemSuffix(run.itemIndex)}`,
		{
			itemIndex: run.itemIndex,
			description: `Only its first job was read (${formatUsd(PRICE_MICROCENTS.search_jobs)}), to count the matches. Raise "Max Credit per Execution (USD)" in Options to at least ${formatUsd(worst + PRICE_MICROCENTS.search_jobs)}${isExactTotal(total) ? '' : `, or ${formatUsd((total + 1_000) * PRICE_MICROCENTS.search_jobs)} if that count is rounded down to the thousand`} (0 removes the cap), narrow the filters, or use a Limit.`,
		},
	);
}

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
 * the first page that holds every match up to its `toDate` (its own `total`), or at a page shorter
 * than asked that brings nothing new (a replica behind: a warning says what it left). Every page goes
 * through `run.call`, so the execution's Max Credit is checked before each one (for no more rows
 * than are left), and no page asks for more rows than the cap has left unspent.
 */
export async function walkBackThroughTime(run: ItemRun, body: IDataObject, node: INode): Promise<Walk> {
	let total: number | undefined;
	const capped = Number.isFinite(run.creditUnspentMicrocents());
	let counted = false;
	const fetchPage: FetchPage = async ({ toMs, limit }) => {
		// Past the first page, the first total says what the rest could cost: a walk the cap cannot
		// pay for stops here, having bought one job, not the cap's worth before failing anyway.
		if (capped && total !== undefined && !counted) refuseIfOverCap(run, node, total);
		counted = total !== undefined;
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
		capped && total === undefined
			? RETURN_ALL_FIRST_PAGE_UNDER_CAP
			: Math.max(1, Math.min(MAX_ROWS_PER_CALL, Math.floor(run.creditUnspentMicrocents() / PRICE_MICROCENTS.search_jobs)));
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
