import type { IDataObject } from 'n8n-workflow';

import type { ToolName } from '../filters';

/** Per-call credit metering (docs/service.md#envelope). */
export interface ToolUsage {
	consumedMicrocents: number;
	remainingMicrocents: number;
}

/** search_jobs' `data`, as checkEnvelope guarantees it. */
export interface SearchJobsData {
	jobs: IDataObject[];
	total: number;
}

/** A successful answer of the service: the spec's `{ data, usage }` envelope. */
export interface ToolResult<T = IDataObject> {
	data: T;
	usage: ToolUsage;
}

export type EnvelopeCheck<T> = { ok: true; result: ToolResult<T> } | { ok: false; problem: string };

/** Every total below this is a count: search engines round only the larger ones (to whole thousands). */
export const EXACT_TOTALS_BELOW = 1_000;

/**
 * Whether a `total` is a count rather than a rounded figure. Search engines report large counts
 * rounded down to a thousand: a total of 1,000 or more that is a whole number of thousands may
 * stand for more. A count that is exactly 2,000 is treated the same way (one request more).
 */
export function isExactTotal(total: number): boolean {
	return total < EXACT_TOTALS_BELOW || total % 1_000 !== 0;
}

/** A total as a sentence gives it: "1,234", or "at least 21,000" where it may be rounded. */
export const totalInWords = (total: number): string => `${isExactTotal(total) ? '' : 'at least '}${total.toLocaleString('en-US')}`;

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a body that is not JSON looks like, in a few words (never the body itself: it may echo the key). */
function describeText(text: string): string {
	const start = text.trimStart().slice(0, 200).toLowerCase();
	if (start === '') return 'an empty body';
	if (start.startsWith('<!doctype html') || start.startsWith('<html') || start.includes('<body')) return 'an HTML page';
	if (start.startsWith('<')) return 'an XML or HTML document';
	return 'a body that is not JSON';
}

/**
 * Checks that a 2xx body is the service's envelope (docs/service.md#envelope): a `data` object, integer
 * `usage.consumedMicrocents` and `usage.remainingMicrocents`, and for search_jobs a `data.jobs`
 * list and an integer `data.total`. An HTML page from a proxy, `{}` or any other shape is not a
 * success: taken as one, it would output nothing (or `{}`) and hide that the node is not talking
 * to the service.
 */
export function checkEnvelope<T>(tool: ToolName, body: unknown): EnvelopeCheck<T> {
	if (body === undefined || body === null) return { ok: false, problem: 'an empty body' };
	if (typeof body === 'string') return { ok: false, problem: describeText(body) };
	if (!isObject(body)) return { ok: false, problem: `a JSON ${Array.isArray(body) ? 'list' : typeof body} instead of an object` };
	if (!isObject(body.data)) return { ok: false, problem: 'JSON without a "data" object' };
	if (tool === 'search_jobs' && !Array.isArray(body.data.jobs)) {
		return { ok: false, problem: 'JSON without a "data.jobs" list' };
	}
	// Return All and the trigger's counts both rely on `total`: an answer without it is not the service's.
	if (tool === 'search_jobs' && !Number.isSafeInteger(body.data.total)) {
		return { ok: false, problem: 'JSON without an integer "data.total"' };
	}
	// The walk ends when a page holds its whole total: an exact one fewer than the distinct jobs sent is not
	// the service's count (a uid repeated in the answer, as a search engine's join may, is one job). A
	// rounded one says only "at least": a page of 1,500 may come with a total of 1,000.
	const distinct = tool === 'search_jobs' ? new Set((body.data.jobs as { uid?: unknown }[]).map((job) => String(job?.uid))).size : 0;
	if (tool === 'search_jobs' && isExactTotal(body.data.total as number) && (body.data.total as number) < distinct) {
		return { ok: false, problem: `a "data.total" of ${body.data.total as number}, fewer than its ${distinct} jobs` };
	}
	const usage = body.usage;
	if (!isObject(usage)) return { ok: false, problem: 'JSON without a "usage" object' };
	for (const field of ['consumedMicrocents', 'remainingMicrocents'] as const) {
		if (!Number.isSafeInteger(usage[field])) return { ok: false, problem: `JSON without an integer "usage.${field}"` };
	}
	return {
		ok: true,
		result: {
			data: body.data as T,
			usage: {
				consumedMicrocents: usage.consumedMicrocents as number,
				remainingMicrocents: usage.remainingMicrocents as number,
			},
		},
	};
}
