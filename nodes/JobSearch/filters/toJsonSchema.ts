import { boundsOf, wireValues } from './bounds';
import { wireDescription, wireExample } from './describe';
import { FILTERS } from './schema';
import type { EnumOption, FilterSpec } from './types';
import { COUNTRY_CODES, DATE_TIME_PATTERN, MONEY_PATTERN } from './wireFormats';

/** The subset of JSON Schema (draft-07) this package emits. */
export interface JsonSchema {
	type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
	title?: string;
	description?: string;
	properties?: Record<string, JsonSchema>;
	required?: string[];
	additionalProperties?: boolean;
	items?: JsonSchema;
	enum?: readonly (string | number | boolean)[];
	const?: string;
	pattern?: string;
	format?: string;
	minimum?: number;
	maximum?: number;
	minLength?: number;
	maxLength?: number;
	maxItems?: number;
	default?: unknown;
	examples?: unknown[];
}

export interface SchemaOptions {
	/**
	 * Also list the other spellings the service accepts for a value ("24 hours" for "24h"): on
	 * for validating input, off for what is advertised (MCP tools/list), so that a client offers
	 * each value once.
	 */
	acceptedSpellings?: boolean;
}

/** The values a schema lists for a set of options. */
function enumOf(options: readonly EnumOption[], { acceptedSpellings = false }: SchemaOptions): string[] {
	return acceptedSpellings ? wireValues(options) : options.map((o) => o.value);
}

function valueSchema(spec: FilterSpec, options: SchemaOptions): JsonSchema {
	const { maxItems, maxLength } = boundsOf(spec);
	switch (spec.type) {
		case 'integer':
		case 'number':
			return { type: spec.type, minimum: spec.minimum, maximum: spec.maximum };
		case 'money':
			return { type: 'string', maxLength, pattern: MONEY_PATTERN };
		case 'boolean':
			return { type: 'boolean' };
		case 'dateTime':
			// No `format: date-time`: it would refuse a date alone. The calendar check (no 30 February)
			// is the node's, which the server runs after the schema.
			return { type: 'string', maxLength, pattern: DATE_TIME_PATTERN };
		case 'choice':
			return { type: 'string', enum: enumOf(spec.options, options) };
		case 'choiceList':
			return { type: 'array', maxItems, items: { type: 'string', enum: enumOf(spec.options, options) } };
		case 'textList':
			return { type: 'array', maxItems, items: { type: 'string', minLength: 1, maxLength } };
		case 'locationList':
			return {
				type: 'array',
				maxItems,
				items: {
					type: 'object',
					required: ['type', 'value'],
					additionalProperties: false,
					properties: {
						type: { type: 'string', const: 'COUNTRY' },
						value: { type: 'string', enum: COUNTRY_CODES },
					},
				},
			};
	}
}

function dropUndefined(schema: JsonSchema): JsonSchema {
	return Object.fromEntries(Object.entries(schema).filter(([, v]) => v !== undefined)) as JsonSchema;
}

function filterToJsonSchema(spec: FilterSpec, options: SchemaOptions = {}): JsonSchema {
	const example = wireExample(spec);
	const schema: JsonSchema = {
		...valueSchema(spec, options),
		title: spec.title,
		description: wireDescription(spec),
		...(example === undefined ? {} : { examples: [example] }),
	};
	if (spec.type === 'integer' && spec.default !== undefined) schema.default = spec.default;
	return dropUndefined(schema);
}

/**
 * search_jobs input as JSON Schema: the server validates requests with it (ajv, with the
 * date-time format, every accepted spelling) and MCP `tools/list` serves it (each value once).
 * Unknown keys are refused, so a typo cannot silently widen a paid search.
 */
export function toJsonSchema(options: SchemaOptions = {}): JsonSchema {
	return {
		type: 'object',
		additionalProperties: false,
		properties: Object.fromEntries(FILTERS.map((f) => [f.key, filterToJsonSchema(f, options)])),
	};
}
