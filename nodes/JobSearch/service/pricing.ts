import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_ROWS_PER_CALL, type ToolName } from '../filters';

/** 1 USD = 100,000,000 microcents: the service meters credit in microcents. */
export const MICROCENTS_PER_USD = 100_000_000;

/**
 * The public price list (USD 5.79 per 1,000 rows, 19.50 per 1,000 lookups, 5.40 per 1,000
 * addon results). The node only uses it to bound what a call may cost before sending it; the
 * service's `usage` is what is actually counted.
 */
export const PRICE_MICROCENTS: Readonly<Record<ToolName, number>> = {
	search_jobs: 579_000,
	get_job: 1_950_000,
	get_client_activity: 540_000,
	get_client_history: 540_000,
};

/**
 * Max Credit per Execution when the user has not set it: a slip (Limit 10,000, Return All on a
 * wide search, a sheet of 500 job links) is refused before it is sent instead of emptying the
 * account; a Limit of 50 ($0.29) or a tool call runs. 0 in the option means no cap.
 */
export const DEFAULT_MAX_CREDIT_USD = 1;

/** The most a call with this body can cost: a search is billed per returned row, up to its limit. */
export function worstCaseMicrocents(tool: ToolName, body: IDataObject): number {
	if (tool !== 'search_jobs') return PRICE_MICROCENTS[tool];
	const limit = typeof body.limit === 'number' ? body.limit : DEFAULT_ROWS_PER_CALL;
	return Math.max(0, Math.floor(limit)) * PRICE_MICROCENTS.search_jobs;
}

export function microcentsToUsd(microcents: number): number {
	return microcents / MICROCENTS_PER_USD;
}

/** "$0.0058" for small sums, "$12.34" for large ones: a price of a few rows must not print as $0.00. */
export function formatUsd(microcents: number): string {
	const usd = microcentsToUsd(microcents);
	if (usd === 0) return '$0';
	if (Math.abs(usd) >= 1) return `$${usd.toFixed(2)}`;
	return `$${usd.toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}`;
}
