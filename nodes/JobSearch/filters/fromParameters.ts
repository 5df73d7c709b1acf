import { GROUP_COLLECTIONS, toParameterName } from './naming';
import { FILTERS } from './schema';
import { hasProtoKey } from './protoKey';
import { toRequestBody, type RequestBodyOptions } from './toRequestBody';
import type { FilterIssue, SearchJobsBody } from './types';
import { objectAsTextIssues, validate } from './validate';

export const ADDITIONAL_FILTERS = 'additionalFilters';
export const ADDITIONAL_FILTERS_TITLE = 'Additional Filters (JSON)';
const ADDITIONAL_FILTERS_HOW_TO = 'Write one JSON object of flat wire keys, e.g. {"budget.hourlyRate.min": "40"}.';

/** The collection Additional Filters (JSON) is an entry of, in both nodes. */
const OPTIONS = 'options';

/** Additional Filters (JSON), an entry of the Options collection of both nodes. `parameter` reads a node parameter. */
function readAdditionalFilters(parameter: (name: string) => unknown): unknown {
	const options = parameter(OPTIONS);
	return typeof options === 'object' && options !== null ? (options as Record<string, unknown>)[ADDITIONAL_FILTERS] : undefined;
}

type Parsed = { filters: Record<string, unknown> } | { issue: FilterIssue };

function additionalFilters(raw: unknown): Parsed {
	const problem = (message: string): Parsed => ({
		issue: { key: ADDITIONAL_FILTERS, title: ADDITIONAL_FILTERS_TITLE, message: `${message}. ${ADDITIONAL_FILTERS_HOW_TO}` },
	});
	let value = raw;
	if (typeof raw === 'string') {
		if (raw.trim() === '') return { filters: {} };
		try {
			value = JSON.parse(raw);
		} catch (error) {
			return problem(`${ADDITIONAL_FILTERS_TITLE} is not valid JSON: ${(error as Error).message}`);
		}
	}
	if (value === undefined || value === null) return { filters: {} };
	if (typeof value !== 'object' || Array.isArray(value)) return problem(`${ADDITIONAL_FILTERS_TITLE} must be a JSON object`);
	if (hasProtoKey(value)) {
		return { issue: { key: ADDITIONAL_FILTERS, title: ADDITIONAL_FILTERS_TITLE, message: `${ADDITIONAL_FILTERS_TITLE} has a key "__proto__", which is no filter` } };
	}
	return { filters: value as Record<string, unknown> };
}

/**
 * A key of Additional Filters that the node sets itself (`fixed`): merged last it would win, so
 * `{"limit": 500}` would lift Limit or Max Jobs per Tool Call and bill 500 rows. Refused instead,
 * naming the field that sets it.
 */
function ownedKeyIssue(filters: Record<string, unknown>, fixed: Record<string, unknown>, useInstead: Record<string, string>): FilterIssue | undefined {
	const owned = Object.keys(fixed).find((key) => Object.prototype.hasOwnProperty.call(filters, key));
	if (owned === undefined) return undefined;
	const field = useInstead[owned] ? `"${useInstead[owned]}"` : 'its own field';
	return {
		key: ADDITIONAL_FILTERS,
		title: ADDITIONAL_FILTERS_TITLE,
		message: `${ADDITIONAL_FILTERS_TITLE} sets "${owned}", which the node sets itself. Remove it and use ${field} instead`,
	};
}

/**
 * A date filter that was added but holds nothing. Any other filter added empty changes nothing;
 * an empty date would leave the search unbounded in time, and billed as such, while the user
 * meant to bound it (n8n's date picker drops a typed date it cannot read, leaving it empty).
 */
function emptyDateIssues(collections: Record<string, Record<string, unknown>>): FilterIssue[] {
	return FILTERS.filter((spec) => spec.type === 'dateTime').flatMap((spec) => {
		const collection = collections[GROUP_COLLECTIONS[spec.group].name] ?? {};
		const name = toParameterName(spec.key);
		if (!Object.prototype.hasOwnProperty.call(collection, name)) return [];
		const value = collection[name];
		const empty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
		if (!empty) return [];
		const message = `${spec.title} (${spec.key}) was added but is empty, so the search would not be bounded by it: pick a date in the calendar (a typed date must read like 2026-11-26 08:00:00, or the picker drops it), or remove the filter`;
		return [{ key: spec.key, title: spec.title, message }];
	});
}

export interface SearchFilters {
	body: SearchJobsBody;
	/** Empty when the body may be sent; otherwise each problem names its field and the fix. */
	issues: FilterIssue[];
}

/**
 * The search_jobs body from a node's parameters: the generated collections, then `fixed`
 * (what the node itself decides, such as `limit`), then Additional Filters, which may not set a
 * key of `fixed` (`useInstead` names the field that does). Checked before any credit is spent; the
 * caller turns issues into its own error (with `[item N]` where it has items).
 */
export function searchFiltersFromParameters(
	parameter: (name: string) => unknown,
	fixed: Record<string, unknown> = {},
	options: RequestBodyOptions = {},
	useInstead: Record<string, string> = {},
): SearchFilters {
	const extra = additionalFilters(readAdditionalFilters(parameter));
	if ('issue' in extra) return { body: {}, issues: [extra.issue] };
	const owned = ownedKeyIssue(extra.filters, fixed, useInstead);
	if (owned) return { body: {}, issues: [owned] };
	const collections = Object.fromEntries(
		Object.values(GROUP_COLLECTIONS).map(({ name }) => [name, (parameter(name) ?? {}) as Record<string, unknown>]),
	);
	const emptyDates = emptyDateIssues(collections);
	if (emptyDates.length > 0) return { body: {}, issues: emptyDates };
	const body = toRequestBody(collections, { ...fixed, ...extra.filters }, options);
	return { body, issues: [...objectAsTextIssues(body), ...validate(body)] };
}
