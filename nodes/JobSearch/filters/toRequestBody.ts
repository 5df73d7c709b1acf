import { FILTERS, FILTER_BY_KEY } from './schema';
import { wallClockToUtcMs } from './timeZone';
import { wireDateToUtcMs } from './wireFormats';
import { GROUP_COLLECTIONS, toParameterName } from './naming';
import type { CountryLocation, FilterSpec, SearchJobsBody } from './types';

/** Values of the generated collections, keyed by collection name, as getNodeParameter gives them. */
export type FilterCollections = Record<string, Record<string, unknown> | undefined>;

function isEmpty(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		(typeof value === 'string' && value.trim() === '') ||
		(Array.isArray(value) && value.length === 0)
	);
}

/**
 * Lists come from multiOptions (arrays), typed text ("a, b") or expressions (either). An object
 * mapped into the field stays an object, so validation can show it, not "[object Object]".
 */
function toList(value: unknown): unknown[] {
	const raw = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? [value] : String(value).split(',');
	return raw
		.map((v) => (typeof v === 'string' ? v.trim() : v))
		.filter((v) => !isEmpty(v));
}

function toNumberIfNumeric(value: unknown): unknown {
	if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) {
		return Number(value);
	}
	return value;
}

function toDateTime(value: unknown, timeZone: string): unknown {
	// Luxon DateTime (from expressions) and Date both know how to print ISO 8601.
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
	if (typeof value === 'object' && value !== null && 'toISO' in value) {
		return toDateTime(new Date(String((value as { toISO: () => string }).toISO())), timeZone);
	}
	if (typeof value !== 'string') return value;
	if (/([Zz]|[+-]\d{2}:\d{2})$/.test(value)) {
		const parsed = new Date(value);
		return Number.isNaN(parsed.getTime()) ? value : parsed.toISOString();
	}
	// A date alone (a sheet's cell) is that day at 00:00 UTC, as the service reads it.
	if (/^\d{4}-\d{2}-\d{2}$/.test(value.trim())) {
		const utcMs = wireDateToUtcMs(value.trim());
		return Number.isNaN(utcMs) ? value : new Date(utcMs).toISOString();
	}
	// n8n's date picker gives "2026-11-01T09:00:00" with no zone: the workflow's time zone is meant.
	const utcMs = wallClockToUtcMs(value, timeZone) ?? wallClockToUtcMs(value, 'UTC');
	return utcMs === undefined ? value : new Date(utcMs).toISOString();
}

/** String(1e-7) is "1e-7", which no money field accepts: print cents, without trailing zeros. */
function toMoneyString(value: number): string {
	if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return String(value);
	return value.toFixed(2).replace(/\.?0+$/, '');
}

/** A typed code in any case ("us") is meant as the code; anything else is kept as typed, for the message. */
function toLocation(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	return { type: 'COUNTRY', value: /^[a-z]{2}$/i.test(value) ? value.toUpperCase() : value } satisfies CountryLocation;
}

/**
 * One value as the wire wants it. Values that cannot be converted are passed through unchanged,
 * so that `validate` names the field instead of a conversion failing silently.
 */
function toWireValue(spec: FilterSpec, value: unknown, timeZone = 'UTC'): unknown {
	switch (spec.type) {
		case 'integer':
		case 'number':
			return toNumberIfNumeric(value);
		case 'money':
			return typeof value === 'number' ? toMoneyString(value) : typeof value === 'string' ? value.trim() : value;
		case 'boolean':
			return value === 'true' ? true : value === 'false' ? false : value;
		case 'dateTime':
			return toDateTime(value, timeZone);
		case 'choice': {
			const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : value;
			// The field may store its own value (Search Period stores hours): the wire gets the schema's.
			return spec.options.find((o) => o.fieldValue !== undefined && o.fieldValue === text)?.value ?? text;
		}
		case 'choiceList':
		case 'textList':
			return toList(value);
		case 'locationList':
			return toList(value).map(toLocation);
	}
}

export interface RequestBodyOptions {
	/** The workflow's IANA time zone, for dates picked without one. Default UTC. */
	timeZone?: string;
}

/**
 * The flat search_jobs body from the node's filter collections: dotted wire keys, wire types,
 * and no empty keys. `extra` (values the node sets itself, then "Additional Filters") is merged
 * last and wins; its known keys get the same conversion, so an expression's "5" still counts.
 */
export function toRequestBody(
	collections: FilterCollections,
	extra: Record<string, unknown> = {},
	{ timeZone = 'UTC' }: RequestBodyOptions = {},
): SearchJobsBody {
	const body: Record<string, unknown> = {};
	const put = (key: string, value: unknown) => {
		if (isEmpty(value)) return;
		const spec = FILTER_BY_KEY.get(key);
		const wire = spec ? toWireValue(spec, value, timeZone) : value;
		if (!isEmpty(wire)) body[key] = wire;
	};
	for (const spec of FILTERS) {
		const name = toParameterName(spec.key);
		put(spec.key, (collections[GROUP_COLLECTIONS[spec.group].name] ?? {})[name]);
	}
	for (const [key, value] of Object.entries(extra)) put(key, value);
	return body as SearchJobsBody;
}
