import { FILTERS } from './schema';
import { GROUP_COLLECTIONS, toParameterName } from './naming';
import type { CountryLocation, FilterSpec, SearchJobsBody, WireValue } from './types';

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

/** Lists come from multiOptions (arrays), typed text ("a, b") or expressions (either). */
function toList(value: unknown): unknown[] {
	const raw = Array.isArray(value) ? value : String(value).split(',');
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

function toDateTime(value: unknown): unknown {
	// Luxon DateTime (from expressions) and Date both know how to print ISO 8601.
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
	if (typeof value === 'object' && value !== null && 'toISO' in value) {
		return toDateTime(new Date(String((value as { toISO: () => string }).toISO())));
	}
	if (typeof value !== 'string') return value;
	// n8n's date picker gives "2026-11-01T00:00:00" with no zone: read it as UTC, not server time.
	const zoned = /([Zz]|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`;
	const parsed = new Date(zoned);
	return Number.isNaN(parsed.getTime()) ? value : parsed.toISOString();
}

/** String(1e-7) is "1e-7", which no money field accepts: print cents, without trailing zeros. */
function toMoneyString(value: number): string {
	if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return String(value);
	return value.toFixed(2).replace(/\.?0+$/, '');
}

function toLocation(value: unknown): unknown {
	if (typeof value === 'string') return { type: 'COUNTRY', value: value.toUpperCase() } satisfies CountryLocation;
	return value;
}

/**
 * One value as the wire wants it. Values that cannot be converted are passed through unchanged,
 * so that `validate` names the field instead of a conversion failing silently.
 */
export function toWireValue(spec: FilterSpec, value: unknown): unknown {
	switch (spec.type) {
		case 'integer':
		case 'number':
			return toNumberIfNumeric(value);
		case 'money':
			return typeof value === 'number' ? toMoneyString(value) : typeof value === 'string' ? value.trim() : value;
		case 'boolean':
			return value === 'true' ? true : value === 'false' ? false : value;
		case 'dateTime':
			return toDateTime(value);
		case 'choice':
			return typeof value === 'string' ? value.trim() : value;
		case 'choiceList':
		case 'textList':
			return toList(value);
		case 'locationList':
			return toList(value).map(toLocation);
	}
}

/**
 * The flat search_jobs body from the node's filter collections: dotted wire keys, wire types,
 * and no empty keys. `extra` (the "Additional Filters" JSON) is merged last and wins.
 */
export function toRequestBody(
	collections: FilterCollections,
	extra: Record<string, unknown> = {},
): SearchJobsBody {
	const body: Record<string, unknown> = {};
	for (const spec of FILTERS) {
		const collection = collections[GROUP_COLLECTIONS[spec.group].name] ?? {};
		const value = collection[toParameterName(spec.key)];
		if (isEmpty(value)) continue;
		const wire = toWireValue(spec, value);
		if (!isEmpty(wire)) body[spec.key] = wire;
	}
	for (const [key, value] of Object.entries(extra)) {
		if (!isEmpty(value)) body[key] = value;
	}
	return body as SearchJobsBody;
}

export type { WireValue };
