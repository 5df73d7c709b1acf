import { FILTER_BY_KEY } from './schema';
import type { EnumOption, FilterIssue, FilterSpec } from './types';
import { COUNTRY_CODE_PATTERN, DATE_TIME_PATTERN, MONEY_PATTERN, isCalendarValid } from './wireFormats';

const money = new RegExp(MONEY_PATTERN);
const country = new RegExp(COUNTRY_CODE_PATTERN);
const dateTime = new RegExp(DATE_TIME_PATTERN);

function show(value: unknown): string {
	const text = JSON.stringify(value);
	return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
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
				: `has unknown value${bad.length > 1 ? 's' : ''} ${bad.map(show).join(', ')}; use: ${choices(spec.options)}`;
		}
		case 'textList':
			return Array.isArray(value) && value.every((v) => typeof v === 'string' && v.length > 0)
				? undefined
				: 'must be a list of non-empty texts, for example "react, node.js"';
		case 'locationList': {
			if (!Array.isArray(value)) return 'must be a list of two-letter country codes, such as "US, GB"';
			const bad = value.filter(
				(v) =>
					typeof v !== 'object' ||
					v === null ||
					Object.keys(v).some((k) => k !== 'type' && k !== 'value') ||
					(v as { type?: unknown }).type !== 'COUNTRY' ||
					typeof (v as { value?: unknown }).value !== 'string' ||
					!country.test((v as { value: string }).value),
			);
			if (bad.length === 0) return undefined;
			const shown = bad.map((v) => show((v as { value?: unknown })?.value ?? v)).join(', ');
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
			issues.push({ key, title: spec.title, message: `${spec.title} (${key}) ${message}; got ${show(value)}` });
		}
	}
	return issues;
}
