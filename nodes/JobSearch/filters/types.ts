/**
 * The vocabulary of the filter schema. Every search_jobs input key is described once, as a
 * FilterSpec, and everything else (n8n fields, request bodies, pre-flight validation, JSON Schema
 * for the server and MCP, the README table) is derived from those descriptions.
 */

export const FILTER_GROUPS = [
	'Basic',
	'Keywords',
	'Budget & Payment',
	'Client Requirements',
	'Vendor Preferences',
] as const;

export type FilterGroup = (typeof FILTER_GROUPS)[number];

export interface EnumOption {
	/** Exactly what goes on the wire, misspellings included. */
	value: string;
	/** What a person reads in the UI. */
	name: string;
	/** Other wire spellings the service accepts for the same value (e.g. "24 hours" for "24h"). */
	aliases?: readonly string[];
	/**
	 * What the n8n field stores instead of `value`, when the UI needs another value (Search Period
	 * stores hours, so that n8n's lint accepts its options in time order). Mapped back to `value`.
	 */
	fieldValue?: string;
}

/** Where a fact comes from: the public docs, the upstream scraper's keys, or our own decision. */
export type FilterSource = 'doc' | 'upstream' | 'ours';

interface FilterCommon {
	/** The flat wire key. Dots are part of the key, not nesting. */
	key: string;
	group: FilterGroup;
	/** Title Case label shown in n8n. */
	title: string;
	/**
	 * One or two sentences for a person and for an LLM choosing values: what the filter means, not
	 * how a list is written, which differs between the n8n field and the wire (describe.ts adds it).
	 */
	help: string;
	/** What only the n8n field needs said (how its date picker's time is read); never on the wire's schema. */
	fieldNote?: string;
	source: FilterSource;
	/**
	 * A sample value as typed into the n8n field ("US, GB, DE"), shown as its placeholder ("e.g. …");
	 * the wire's example (a JSON array of country entries) is derived from it.
	 */
	example?: string;
}

export type FilterType =
	| { type: 'integer'; minimum?: number; maximum?: number; default?: number }
	| { type: 'number'; minimum?: number; maximum?: number }
	/** USD amount; the wire wants a string such as "25" or "25.5". */
	| { type: 'money' }
	| { type: 'boolean' }
	/** ISO 8601 date-time; the node sends UTC with milliseconds. */
	| { type: 'dateTime' }
	/** One string out of a fixed set. */
	| { type: 'choice'; options: readonly EnumOption[]; default?: string }
	/** A list of strings out of a fixed set. */
	| { type: 'choiceList'; options: readonly EnumOption[] }
	/** A list of free strings. */
	| { type: 'textList' }
	/** A list of `{ type: 'COUNTRY', value: <ISO 3166 alpha-2> }`. */
	| { type: 'locationList' };

export type FilterSpec = FilterCommon & FilterType;

export interface CountryLocation {
	type: 'COUNTRY';
	value: string;
}

/** A search_jobs request body as it goes on the wire: flat dotted keys. */
export type WireValue = string | number | boolean | string[] | CountryLocation[];
export type SearchJobsBody = Record<string, WireValue>;

export interface FilterIssue {
	/** The wire key, or the n8n field path where the value came from the UI. */
	key: string;
	/** UI title of the field, for a person. */
	title: string;
	/** What is wrong and how to fix it. */
	message: string;
}
