import { INPUT_BOUNDS } from './schema';
import type { EnumOption, FilterSpec } from './types';

/** How long a filter's value may be: items of a list, characters of a text (or of each text of a list). */
export interface ValueBounds {
	maxItems?: number;
	maxLength?: number;
}

/** Every wire spelling of a set of options, aliases included. */
export function wireValues(options: readonly EnumOption[]): string[] {
	return options.flatMap((o) => [o.value, ...(o.aliases ?? [])]);
}

/** The bounds of one filter, from the schema's INPUT_BOUNDS; a choice list holds at most every option once. */
export function boundsOf(spec: FilterSpec): ValueBounds {
	switch (spec.type) {
		case 'money':
			return { maxLength: INPUT_BOUNDS.moneyLength };
		case 'dateTime':
			return { maxLength: INPUT_BOUNDS.dateTimeLength };
		case 'choiceList':
			return { maxItems: wireValues(spec.options).length };
		case 'textList':
			return { maxItems: INPUT_BOUNDS.textListItems, maxLength: INPUT_BOUNDS.textLength };
		case 'locationList':
			return { maxItems: INPUT_BOUNDS.locationListItems };
		default:
			return {};
	}
}
