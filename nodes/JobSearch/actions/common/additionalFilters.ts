import type { IExecuteFunctions } from 'n8n-workflow';

import { ADDITIONAL_FILTERS, readAdditionalFilters } from '../../filters';
import { operationError } from '../../transport/errors';

/** Whether the Additional Filters text or object has a key "__proto__" at any depth. */
function hasProtoKey(raw: unknown): boolean {
	if (typeof raw === 'string') {
		let found = false;
		try {
			JSON.parse(raw, (key, value: unknown) => {
				if (key === '__proto__') found = true;
				return value;
			});
		} catch {
			return false; // not JSON: the filters say so, naming the field
		}
		return found;
	}
	if (typeof raw !== 'object' || raw === null) return false;
	return Object.prototype.hasOwnProperty.call(raw, '__proto__') || Object.values(raw).some(hasProtoKey);
}

/**
 * Refuses a key "__proto__" in Additional Filters (JSON) before anything is sent: merged into the
 * request it would set the object's prototype instead of a filter, so it would vanish without a
 * word and the search would be billed without it.
 */
export function checkAdditionalFilters(this: IExecuteFunctions, itemIndex: number): void {
	const raw = readAdditionalFilters((name) => this.getNodeParameter(name, itemIndex, name === ADDITIONAL_FILTERS ? '{}' : {}));
	if (!hasProtoKey(raw)) return;
	throw operationError(
		this.getNode(),
		'invalid_input',
		`Additional Filters (JSON) has a key "__proto__", which is no filter [item ${itemIndex}]`,
		{ itemIndex, description: 'Remove the key. Nothing was sent. Write flat wire keys, e.g. {"budget.hourlyRate.min": "40"}.' },
	);
}
