import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { fieldDescription } from './describe';
import { FILTERS } from './schema';
import { GROUP_COLLECTIONS, toParameterName } from './naming';
import { FILTER_GROUPS, type EnumOption, type FilterSpec } from './types';

// The order n8n's lint rules demand for options, multiOptions and collection entries.
const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
const byDisplayName = (a: INodeProperties, b: INodeProperties) => a.displayName.localeCompare(b.displayName);

/** An option as the n8n field shows and stores it. */
function fieldOption(o: EnumOption): INodePropertyOptions {
	return { name: o.name, value: o.fieldValue ?? o.value };
}

/**
 * Options in the order n8n's lint demands: by name, unless their values are numbers, which the
 * lint leaves in their given order (Search Period stores hours to read shortest first).
 */
function fieldOptions(options: readonly EnumOption[]): INodePropertyOptions[] {
	const listed = options.map(fieldOption);
	return /^\d+$/.test(String(listed[0]?.value)) ? listed : listed.sort(byName);
}

/** "e.g. 25" from the schema's example, for the field's placeholder. */
function placeholderOf(spec: FilterSpec): { placeholder?: string } {
	return spec.example === undefined ? {} : { placeholder: `e.g. ${spec.example}` };
}

// Number filters start empty, showing their placeholder: a filter just added must not change the
// result until a value is typed (a Max of 0 would match almost nothing, a Min of 0 would drop jobs
// or clients without the figure). Empty is null, not '': the editor's number input (Element Plus,
// n8n 2.8 and 2.41) turns any value that is neither a number nor null into Number(value) as it
// mounts, so '' became 0, shown as "0.00" and sent. n8n's lint allows a null default on a number
// field, and toRequestBody leaves empty values out of the request.
const UNSET = null;

function field(spec: FilterSpec): INodeProperties {
	const common = {
		displayName: spec.title,
		name: toParameterName(spec.key),
		description: fieldDescription(spec),
		...placeholderOf(spec),
	};
	switch (spec.type) {
		case 'integer':
			return {
				...common,
				type: 'number',
				default: spec.default ?? UNSET,
				typeOptions: { minValue: spec.minimum, maxValue: spec.maximum, numberPrecision: 0 },
			};
		case 'number':
			return {
				...common,
				type: 'number',
				default: UNSET,
				typeOptions: { minValue: spec.minimum, maxValue: spec.maximum },
			};
		case 'money':
			// Typed as a number for the UI; toRequestBody sends it as the string the wire wants.
			return { ...common, type: 'number', default: UNSET, typeOptions: { minValue: 0, numberPrecision: 2 } };
		case 'boolean':
			// Adding a yes/no filter means wanting it on.
			return { ...common, type: 'boolean', default: true };
		case 'dateTime':
			return { ...common, type: 'dateTime', default: '' };
		case 'choice': {
			const chosen = spec.options.find((o) => o.value === spec.default) ?? spec.options[0];
			return { ...common, type: 'options', options: fieldOptions(spec.options), default: fieldOption(chosen).value };
		}
		case 'choiceList':
			return { ...common, type: 'multiOptions', options: fieldOptions(spec.options), default: [] };
		case 'textList':
			return { ...common, type: 'string', default: '' };
		case 'locationList':
			return { ...common, type: 'string', default: '' };
	}
}

export interface NodePropertiesOptions {
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
		return [collection];
	});
}
