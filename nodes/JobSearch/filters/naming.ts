import type { FilterGroup } from './types';

/**
 * n8n splits parameter paths on dots, so a wire key such as "budget.hourlyRate.min" cannot be a
 * parameter name. Each key gets a camelCase name instead ("budgetHourlyRateMin").
 */
export function toParameterName(wireKey: string): string {
	return wireKey
		.split('.')
		.map((part, i) => (i === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1)))
		.join('');
}

interface GroupCollection {
	name: string;
	displayName: string;
}

/** The n8n collection that holds each group's filters. */
export const GROUP_COLLECTIONS: Readonly<Record<FilterGroup, GroupCollection>> = {
	Basic: { name: 'basicFilters', displayName: 'Basic Filters' },
	Keywords: { name: 'keywordFilters', displayName: 'Keyword Filters' },
	'Budget & Payment': { name: 'budgetFilters', displayName: 'Budget & Payment Filters' },
	'Client Requirements': { name: 'clientFilters', displayName: 'Client Requirement Filters' },
	'Vendor Preferences': { name: 'vendorFilters', displayName: 'Freelancer Preference Filters' },
};
