import { boundsOf } from './bounds';
import { FILTER_BY_KEY } from './schema';
import type { EnumOption, FilterIssue, FilterSpec } from './types';
import { COUNTRY_CODE_PATTERN, DATE_TIME_PATTERN, MONEY_PATTERN, isCalendarValid } from './wireFormats';

const money = new RegExp(MONEY_PATTERN);
const country = new RegExp(COUNTRY_CODE_PATTERN);
const dateTime = new RegExp(DATE_TIME_PATTERN);

const SHOWN_CHARS = 60;
const SHOWN_ITEMS = 5;

/**
 * A short preview of any value, in time bounded by what it shows, never by the value's size or
 * depth: a refused 10 MiB body is described as cheaply as a small one.
 */
export function preview(value: unknown, room = SHOWN_CHARS): string {
	const text = sketch(value, room + 3, 3);
	return text.length > room ? `${text.slice(0, room - 3)}...` : text;
}

function sketch(value: unknown, room: number, depth: number): string {
	if (typeof value === 'string') return JSON.stringify(value.length > room ? value.slice(0, room) : value);
	if (value === null || typeof value !== 'object') return String(value);
	if (depth === 0) return Array.isArray(value) ? '[...]' : '{...}';
	const parts: string[] = [];
	let used = 2;
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length && used < room; i++) {
			parts.push(sketch(value[i], room - used, depth - 1));
			used += parts[parts.length - 1].length + 1;
		}
		return `[${parts.join(',')}${parts.length < value.length ? ',...' : ''}]`;
	}
	for (const key in value) {
		if (used >= room) {
			parts.push('...');
			break;
		}
		if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
		parts.push(`${JSON.stringify(key.slice(0, room))}:${sketch((value as Record<string, unknown>)[key], room - used, depth - 1)}`);
		used += parts[parts.length - 1].length + 1;
	}
	return `{${parts.join(',')}}`;
}

/** At most a few distinct offending entries, then how many more there are. */
function someOf(bad: readonly unknown[]): string {
	const shown = [...new Set(bad.slice(0, 50).map((v) => preview(v, 30)))].slice(0, SHOWN_ITEMS);
	const more = bad.length - shown.length;
	return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** A list or text longer than the schema allows; checked before any entry is looked at. */
function boundProblem(spec: FilterSpec, value: unknown): string | undefined {
	const { maxItems, maxLength } = boundsOf(spec);
	if (Array.isArray(value)) {
		if (maxItems !== undefined && value.length > maxItems) return `has ${value.length} entries; at most ${maxItems} are allowed`;
		if (maxLength !== undefined && value.some((v) => typeof v === 'string' && v.length > maxLength)) {
			return `has an entry longer than ${maxLength} characters; shorten it`;
		}
	} else if (typeof value === 'string' && maxLength !== undefined && value.length > maxLength) {
		return `is ${value.length} characters long; at most ${maxLength} are allowed`;
	}
	return undefined;
}

function range(spec: { minimum?: number; maximum?: number }): string {
	if (spec.minimum !== undefined && spec.maximum !== undefined) return ` from ${spec.minimum} to ${spec.maximum}`;
	if (spec.minimum !== undefined) return ` of at least ${spec.minimum}`;
	if (spec.maximum !== undefined) return ` of at most ${spec.maximum}`;
	return '';
}

function choices(options: readonly EnumOption[]): string {
	const names = options.map((o) => `${o.name} (${o.value})`);
	return names.length > 8 ? `${names.slice(0, 8).join(', ')}, ...` : names.join(', ');
}

function allowed(options: readonly EnumOption[]): Set<string> {
	return new Set(options.flatMap((o) => [o.value, ...(o.aliases ?? [])]));
}

/** What is wrong with one value, as advice that says how to fix it; undefined when it is fine. */
function problem(spec: FilterSpec, value: unknown): string | undefined {
	const tooLong = boundProblem(spec, value);
	if (tooLong) return tooLong;
	switch (spec.type) {
		case 'integer':
		case 'number': {
			const isRightType =
				typeof value === 'number' && Number.isFinite(value) && (spec.type === 'number' || Number.isInteger(value));
			const inRange =
				isRightType &&
				(spec.minimum === undefined || (value as number) >= spec.minimum) &&
				(spec.maximum === undefined || (value as number) <= spec.maximum);
			if (inRange) return undefined;
			const kind = spec.type === 'integer' ? 'a whole number' : 'a number';
			return `must be ${kind}${range(spec)}`;
		}
		case 'money':
			return typeof value === 'string' && money.test(value)
				? undefined
				: 'must be a non-negative amount in US dollars, such as 25 or 25.50';
		case 'boolean':
			return typeof value === 'boolean' ? undefined : 'must be true or false';
		case 'dateTime':
			return typeof value === 'string' && dateTime.test(value) && isCalendarValid(value)
				? undefined
				: 'must be an ISO 8601 date and time with a zone, such as 2026-11-01T00:00:00Z';
		case 'choice':
			return typeof value === 'string' && allowed(spec.options).has(value)
				? undefined
				: `must be one of: ${choices(spec.options)}`;
		case 'choiceList': {
			const ok = allowed(spec.options);
			if (!Array.isArray(value)) return `must be a list of: ${choices(spec.options)}`;
			const bad = value.filter((v) => typeof v !== 'string' || !ok.has(v));
			return bad.length === 0
				? undefined
				: `has unknown value${bad.length > 1 ? 's' : ''} ${someOf(bad)}; use: ${choices(spec.options)}`;
		}
		case 'textList':
			return Array.isArray(value) && value.every((v) => typeof v === 'string' && v.length > 0)
				? undefined
				: 'must be a list of non-empty texts, for example "react, node.js"';
		case 'locationList': {
			if (!Array.isArray(value)) return 'must be a list of two-letter country codes, such as "US, GB"';
			const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
			const strayKey = value.map((v) => (isObject(v) ? Object.keys(v).find((k) => k !== 'type' && k !== 'value') : undefined)).find((k) => k !== undefined);
			if (strayKey !== undefined) {
				return `has an entry with the unknown key ${preview(strayKey, 40)}; each entry is {"type": "COUNTRY", "value": "<code>"}`;
			}
			const bad = value.filter(
				(v) => !isObject(v) || v.type !== 'COUNTRY' || typeof v.value !== 'string' || !country.test(v.value),
			);
			if (bad.length === 0) return undefined;
			const shown = someOf(bad.map((v) => (isObject(v) && v.value !== undefined ? v.value : v)));
			return `has ${shown}, which is not a two-letter ISO 3166 country code; use codes such as "US, GB"`;
		}
	}
}

/**
 * The node's pre-flight check of a search_jobs wire body, before any credit is spent. It names
 * the field and says how to fix it. It never refuses what the server's JSON Schema accepts;
 * keys it does not know (from "Additional Filters") are left for the server to judge.
 */
export function validate(body: Record<string, unknown>): FilterIssue[] {
	const issues: FilterIssue[] = [];
	for (const [key, value] of Object.entries(body)) {
		const spec = FILTER_BY_KEY.get(key);
		if (!spec) continue;
		const message = problem(spec, value);
		if (message) {
			issues.push({ key, title: spec.title, message: `${spec.title} (${key}) ${message}; got ${preview(value)}` });
		}
	}
	return issues;
}
