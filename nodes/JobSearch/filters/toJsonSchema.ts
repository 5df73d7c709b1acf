import { boundsOf, wireValues } from './bounds';
import { FILTERS } from './schema';
import type { FilterSpec } from './types';
import { COUNTRY_CODE_PATTERN, DATE_TIME_PATTERN, MONEY_PATTERN } from './wireFormats';

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
}

function valueSchema(spec: FilterSpec): JsonSchema {
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
			return { type: 'string', maxLength, format: 'date-time', pattern: DATE_TIME_PATTERN };
		case 'choice':
			return { type: 'string', enum: wireValues(spec.options) };
		case 'choiceList':
			return { type: 'array', maxItems, items: { type: 'string', enum: wireValues(spec.options) } };
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
						value: { type: 'string', pattern: COUNTRY_CODE_PATTERN },
					},
				},
			};
	}
}

function dropUndefined(schema: JsonSchema): JsonSchema {
	return Object.fromEntries(Object.entries(schema).filter(([, v]) => v !== undefined)) as JsonSchema;
}

export function filterToJsonSchema(spec: FilterSpec): JsonSchema {
	const schema: JsonSchema = { ...valueSchema(spec), title: spec.title, description: spec.help };
	if (spec.type === 'integer' && spec.default !== undefined) schema.default = spec.default;
	return dropUndefined(schema);
}

/**
 * search_jobs input as JSON Schema: the server validates requests with it (ajv, with the
 * date-time format) and MCP `tools/list` serves it. Unknown keys are refused, so a typo
 * cannot silently widen a paid search.
 */
export function toJsonSchema(): JsonSchema {
	return {
		type: 'object',
		additionalProperties: false,
		properties: Object.fromEntries(FILTERS.map((f) => [f.key, filterToJsonSchema(f)])),
	};
}
