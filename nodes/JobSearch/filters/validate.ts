import { boundsOf } from './bounds';
import { countryCodeFor, isCountryCode } from './countries';
import { FILTER_BY_KEY, FILTER_RANGES } from './schema';
import type { EnumOption, FilterIssue, FilterSpec } from './types';
import { DATE_TIME_ACCEPTED, DATE_TIME_PATTERN, MONEY_PATTERN, isCalendarValid } from './wireFormats';

const money = new RegExp(MONEY_PATTERN);
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

/** "which is not" for one entry, "which are not" for several. */
function whichAreNot(bad: readonly unknown[]): string {
	return bad.length === 1 ? 'which is not' : 'which are not';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The advice for an object mapped where text belongs: n8n shows the object, so say what to map instead. */
const MAP_TEXT_NOT_OBJECT = 'map a text inside it instead of the whole object, e.g. {{ $json.skill.name }} rather than {{ $json.skill }}';

const WIRE_KEYS = new Set(['type', 'value']);
const WIRE_ENTRY = '{"type": "COUNTRY", "value": "<code>"}';

/** A wire entry's code as the user wrote it ("Germany"), or the entry itself when it is not one. */
function wordOf(entry: unknown): unknown {
	const isWireEntry = isObject(entry) && Object.keys(entry).every((k) => WIRE_KEYS.has(k)) && entry.type === 'COUNTRY';
	return isWireEntry && typeof entry.value === 'string' ? entry.value : entry;
}

/** No country's name is longer than this: longer text is not looked up. */
const LONGEST_COUNTRY_NAME = 60;

function codeOf(word: unknown): string | undefined {
	return typeof word === 'string' && word.length <= LONGEST_COUNTRY_NAME ? countryCodeFor(word) : undefined;
}

/**
 * What is wrong with a list of country entries, in the user's own words, with the codes to
 * type instead where the entries name countries ("Germany" -> "DE") or spell one otherwise
 * ("UK" -> "GB"); undefined when all are ISO 3166-1 codes.
 */
function countryProblem(list: readonly unknown[]): string | undefined {
	const strayKey = list.flatMap((v) => (isObject(v) ? Object.keys(v).filter((k) => !WIRE_KEYS.has(k)) : []))[0];
	const mapped = list.filter((v) => isObject(v) && !Object.keys(v).some((k) => WIRE_KEYS.has(k)));
	if (mapped.length > 0) {
		return `got ${someOf(mapped)}, ${whichAreNot(mapped)} a country code; type two-letter ISO 3166 codes such as "US, GB", or ${MAP_TEXT_NOT_OBJECT}`;
	}
	if (strayKey !== undefined) return `has an entry with the unknown key ${preview(strayKey, 40)}; each entry is ${WIRE_ENTRY}`;
	const words = list.map(wordOf);
	const bad = words.filter((w) => typeof w !== 'string' || !isCountryCode(w));
	if (bad.length === 0) return undefined;
	if (bad.some(isObject)) return `got ${someOf(bad.filter(isObject))}; each entry is ${WIRE_ENTRY}`;
	// Looked up only for the entries the message shows: a look-up scans every region name once.
	const codes = new Map([...new Set(bad)].slice(0, SHOWN_ITEMS).map((w) => [w, codeOf(w)]));
	const head = `got ${someOf(bad)}, ${whichAreNot(bad)} ${bad.length === 1 ? 'a two-letter ISO 3166 country code' : 'two-letter ISO 3166 country codes'}`;
	if (bad.every((w) => codes.get(w) !== undefined)) {
		return `${head}; write it as "${words.map((w) => codes.get(w) ?? String(w)).join(', ')}"`;
	}
	const known = [...codes].filter(([, code]) => code !== undefined).map(([w, code]) => `"${code}" for ${String(w)}`);
	return `${head}; use codes such as "US, GB"${known.length > 0 ? ` (${known.slice(0, SHOWN_ITEMS).join(', ')})` : ''}`;
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

/** What is wrong with one value and how to fix it, naming what it got; undefined when it is fine. */
function problem(spec: FilterSpec, value: unknown): string | undefined {
	const tooLong = boundProblem(spec, value);
	if (tooLong) return tooLong;
	const scalar = scalarProblem(spec, value);
	return scalar === undefined ? listProblem(spec, value) : `${scalar}; got ${preview(value)}`;
}

/** Single values: the advice, to which `problem` adds what was given. */
function scalarProblem(spec: FilterSpec, value: unknown): string | undefined {
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
				: `must be ${DATE_TIME_ACCEPTED}`;
		case 'choice':
			return typeof value === 'string' && allowed(spec.options).has(value)
				? undefined
				: `must be one of: ${choices(spec.options)}`;
		default:
			return Array.isArray(value) ? undefined : `must be a list${LIST_OF[spec.type]}`;
	}
}

// Only a value sent as it is reaches this (the service's own check, an MCP call): the node turns
// typed text into a list first. So the examples are JSON, as the caller must write them.
const LIST_OF: Record<'choiceList' | 'textList' | 'locationList', string> = {
	choiceList: ' of its options (a JSON array)',
	textList: ' of texts (a JSON array), e.g. ["react", "node.js"]',
	locationList: ` of country entries (a JSON array), e.g. [${WIRE_ENTRY.replace('<code>', 'US')}]`,
};

/** Lists: the entries at fault, as the user gave them, and what to write instead. */
function listProblem(spec: FilterSpec, list: unknown): string | undefined {
	if (!Array.isArray(list)) return undefined;
	switch (spec.type) {
		case 'choiceList': {
			const ok = allowed(spec.options);
			const bad = list.filter((v) => typeof v !== 'string' || !ok.has(v));
			if (bad.length === 0) return undefined;
			const objects = bad.filter(isObject);
			const fix = objects.length > 0 ? `${MAP_TEXT_NOT_OBJECT}, with values from: ` : 'use: ';
			return `got ${someOf(bad)}, ${whichAreNot(bad)} among its options; ${fix}${choices(spec.options)}`;
		}
		case 'textList': {
			const bad = list.filter((v) => typeof v !== 'string' || v.length === 0);
			if (bad.length === 0) return undefined;
			const fix = bad.some((v) => typeof v === 'object' && v !== null) ? MAP_TEXT_NOT_OBJECT : 'give non-empty texts, e.g. "react, node.js"';
			return `got ${someOf(bad)}, ${whichAreNot(bad)} text; ${fix}`;
		}
		case 'locationList':
			return countryProblem(list);
		default:
			return undefined;
	}
}

/**
 * The node's pre-flight check of a search_jobs wire body, before any credit is spent. It names
 * the field and says how to fix it. The server refuses the same (its JSON Schema, then
 * rangeIssues); keys it does not know (from "Additional Filters") are left for the server to judge.
 */
export function validate(body: Record<string, unknown>): FilterIssue[] {
	const issues: FilterIssue[] = [];
	for (const [key, value] of Object.entries(body)) {
		const spec = FILTER_BY_KEY.get(key);
		if (!spec) continue;
		const message = problem(spec, value);
		if (message) {
			issues.push({ key, title: spec.title, message: `${spec.title} (${key}) ${message}` });
		}
	}
	return issues.length > 0 ? issues : rangeIssues(body);
}

/** A number, or the amount a money string holds; undefined for anything else. */
function amountOf(value: unknown): number | undefined {
	if (typeof value === 'number') return value;
	return typeof value === 'string' && money.test(value) ? Number(value) : undefined;
}

/**
 * Minimums above their maximums, naming both fields: such a search finds nothing, or (for the
 * hourly rate, whose bounds apply to the two ends of a job's range) jobs on both sides, never
 * what was meant. Judged once each value is valid on its own (validate checks those first).
 */
export function rangeIssues(body: Record<string, unknown>): FilterIssue[] {
	return FILTER_RANGES.flatMap(({ min, max }) => {
		const [low, high] = [amountOf(body[min.key]), amountOf(body[max.key])];
		if (low === undefined || high === undefined || low <= high) return [];
		const message = `${min.title} (${min.key}) is ${low}, more than ${max.title} (${max.key}), ${high}; make the minimum no more than the maximum, or swap them if that is what was meant`;
		return [{ key: min.key, title: min.title, message }];
	});
}

/** What String() makes of an object: an expression that joined an object into text. */
const OBJECT_AS_TEXT = '[object Object]';

/** The texts of a value (a list's entries, a country entry's code) that hold an object turned into text. */
function objectsAsText(value: unknown): string[] {
	if (typeof value === 'string') return value.includes(OBJECT_AS_TEXT) ? [value] : [];
	if (Array.isArray(value)) return value.flatMap(objectsAsText);
	return isObject(value) ? objectsAsText(value.value) : [];
}

/**
 * Text in which an expression turned an object into "[object Object]": the service would take it
 * as words and bill a search for them. Refused by the node only (the service has no reason to),
 * naming the field by its label.
 */
export function objectAsTextIssues(body: Record<string, unknown>): FilterIssue[] {
	return Object.entries(body).flatMap(([key, value]) => {
		const spec = FILTER_BY_KEY.get(key);
		const texts = spec ? objectsAsText(value) : [];
		if (!spec || texts.length === 0) return [];
		const message = `${spec.title} (${key}) got ${someOf(texts)}: "${OBJECT_AS_TEXT}" is what an object becomes as text; ${MAP_TEXT_NOT_OBJECT}`;
		return [{ key, title: spec.title, message }];
	});
}
