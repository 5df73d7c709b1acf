import type { INodeProperties, INodePropertyOptions, IDisplayOptions } from 'n8n-workflow';

import { FILTERS } from './schema';
import { GROUP_COLLECTIONS, toParameterName } from './naming';
import { FILTER_GROUPS, type EnumOption, type FilterSpec } from './types';

// The order n8n's lint rules demand for options, multiOptions and collection entries.
const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
const byDisplayName = (a: INodeProperties, b: INodeProperties) => a.displayName.localeCompare(b.displayName);

function sortedOptions(options: readonly EnumOption[]): INodePropertyOptions[] {
	return options.map((o) => ({ name: o.name, value: o.value })).sort(byName);
}

/**
 * n8n's style for field descriptions: a single sentence carries no final period. The schema's
 * help keeps it, for JSON Schema and MCP readers.
 */
export function toFieldDescription(help: string): string {
	const singleSentence = help.replace('e.g.', '').split('. ').length === 1;
	return singleSentence && help.endsWith('.') ? help.slice(0, -1) : help;
}

function field(spec: FilterSpec): INodeProperties {
	const common = { displayName: spec.title, name: toParameterName(spec.key), description: toFieldDescription(spec.help) };
	switch (spec.type) {
		case 'integer':
			return {
				...common,
				type: 'number',
				default: spec.default ?? spec.minimum ?? 0,
				typeOptions: { minValue: spec.minimum, maxValue: spec.maximum, numberPrecision: 0 },
			};
		case 'number':
			return {
				...common,
				type: 'number',
				default: spec.minimum ?? 0,
				typeOptions: { minValue: spec.minimum, maxValue: spec.maximum },
			};
		case 'money':
			// Typed as a number for the UI; toRequestBody sends it as the string the wire wants.
			return { ...common, type: 'number', default: 0, typeOptions: { minValue: 0, numberPrecision: 2 } };
		case 'boolean':
			// Adding a yes/no filter means wanting it on.
			return { ...common, type: 'boolean', default: true };
		case 'dateTime':
			return { ...common, type: 'dateTime', default: '' };
		case 'choice':
			return { ...common, type: 'options', options: sortedOptions(spec.options), default: spec.options[0].value };
		case 'choiceList':
			return { ...common, type: 'multiOptions', options: sortedOptions(spec.options), default: [] };
		case 'textList':
			return { ...common, type: 'string', default: '' };
		case 'locationList':
			return { ...common, type: 'string', default: '', placeholder: 'e.g. US, GB, DE' };
	}
}

export interface NodePropertiesOptions {
	displayOptions?: IDisplayOptions;
	/** Wire keys the calling node controls itself (e.g. `limit`, or the trigger's time window). */
	omit?: readonly string[];
}

/** The n8n fields for the search filters: one "Add Filter" collection per group. */
export function toNodeProperties(options: NodePropertiesOptions = {}): INodeProperties[] {
	const omit = new Set(options.omit ?? []);
	return FILTER_GROUPS.flatMap((group) => {
		const fields = FILTERS.filter((f) => f.group === group && !omit.has(f.key)).map(field).sort(byDisplayName);
		if (fields.length === 0) return [];
		const collection: INodeProperties = {
			displayName: GROUP_COLLECTIONS[group].displayName,
			name: GROUP_COLLECTIONS[group].name,
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: fields,
		};
		if (options.displayOptions) collection.displayOptions = options.displayOptions;
		return [collection];
	});
}
