import type { CountryLocation, FilterSpec } from './types';

// A filter's help says what it means; how a value is written differs by reader. A person in n8n
// types a list as comma-separated text (the node turns it into the wire's list); a client of the
// service (an MCP model, a REST caller) sends JSON: lists as arrays, countries as entries. Both
// descriptions and the wire's example come from the filter's one spec here, so none can
// contradict what validation accepts (test/server/mcpDescriptions.test.ts checks each example).

const isList = (spec: FilterSpec) => spec.type === 'textList' || spec.type === 'locationList';

const split = (text: string) =>
	text
		.split(',')
		.map((part) => part.trim())
		.filter((part) => part !== '');

/** The filter's example as the wire takes it ("US, GB" as country entries); undefined where it has none. */
export function wireExample(spec: FilterSpec): unknown {
	switch (spec.type) {
		case 'integer':
		case 'number':
			return spec.example !== undefined ? Number(spec.example) : spec.type === 'integer' ? spec.default : undefined;
		case 'money':
		case 'dateTime':
			return spec.example;
		case 'boolean':
			return true;
		case 'choice':
			return spec.default ?? spec.options[0]?.value;
		case 'choiceList':
			return spec.options.slice(0, 2).map((o) => o.value);
		case 'textList':
			return spec.example === undefined ? undefined : split(spec.example);
		case 'locationList':
			return spec.example === undefined ? undefined : split(spec.example).map((value): CountryLocation => ({ type: 'COUNTRY', value }));
	}
}

/** How the wire wants the value written, where its JSON type alone does not say. */
function wireShape(spec: FilterSpec): string | undefined {
	switch (spec.type) {
		case 'money':
			return 'An amount in US dollars, as a string.';
		case 'choiceList':
			return 'A JSON array of its values.';
		case 'textList':
			return 'A JSON array of texts.';
		case 'locationList':
			return 'A JSON array of country entries, each {"type": "COUNTRY", "value": "<code>"}.';
		default:
			return undefined;
	}
}

/** The filter as a client of the service reads it (JSON Schema, MCP tools/list): meaning, shape, one example. */
export function wireDescription(spec: FilterSpec): string {
	const example = wireExample(spec);
	return [spec.help, wireShape(spec), example === undefined ? undefined : `Example: ${JSON.stringify(example)}.`].filter(Boolean).join(' ');
}

/**
 * n8n's style for field descriptions: a single sentence carries no final period. The wire's
 * description keeps it, for JSON Schema and MCP readers.
 */
export function toFieldDescription(help: string): string {
	const singleSentence = help.replace('e.g.', '').split('. ').length === 1;
	return singleSentence && help.endsWith('.') ? help.slice(0, -1) : help;
}

/** The filter as a person reads it in the n8n field: meaning, how to type a list, what the field itself adds. */
export function fieldDescription(spec: FilterSpec): string {
	return toFieldDescription([spec.help, isList(spec) ? 'Separate several with commas.' : undefined, spec.fieldNote].filter(Boolean).join(' '));
}
