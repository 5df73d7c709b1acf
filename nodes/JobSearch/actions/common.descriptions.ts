import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { ADDITIONAL_FILTERS, ADDITIONAL_FILTERS_TITLE } from '../filters';

export { jobUidField } from './common/jobUid';

// The fields more than one operation (or both nodes) show. Each is declared once, without saying
// where it shows; updateDisplayOptions places it. The Job UID field lives beside its link patterns
// and its reader (common/jobUid.ts), so the check as you type and the one before sending agree.

type Conditions = NonNullable<IDisplayOptions['show']>;

function merged(theirs: Conditions | undefined, ours: Conditions | undefined): Conditions | undefined {
	return theirs || ours ? { ...theirs, ...ours } : undefined;
}

/**
 * `properties` shown where `displayOptions` says, each also under its own conditions: a field's
 * own condition on a key wins over the one given here (a tool-only field stays tool-only).
 */
export function updateDisplayOptions(displayOptions: IDisplayOptions, properties: readonly INodeProperties[]): INodeProperties[] {
	return properties.map((property) => {
		const show = merged(displayOptions.show, property.displayOptions?.show);
		const hide = merged(displayOptions.hide, property.displayOptions?.hide);
		return { ...property, displayOptions: { ...property.displayOptions, ...(show ? { show } : {}), ...(hide ? { hide } : {}) } };
	});
}

/** The Simplify switch of every operation and node that outputs jobs: on by default, see simplifyJob. */
export function simplifyProperty(): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
	};
}

/**
 * The "Include Usage" option (see withUsage). `spentBy` is what consumed the credit as the node
 * sees it: one call of the action node, or one poll of the trigger.
 */
export function includeUsageOption(spentBy: 'call' | 'poll'): INodeProperties {
	const description =
		spentBy === 'poll'
			? 'Whether to add a "usage" field with the credit this poll consumed and the credit left (microcents and USD). It is on the poll\'s first job only, so summing "usage" over the items counts each poll once.'
			: 'Whether to add a "usage" field with the credit the call consumed and the credit left (microcents and USD). A search puts it on its first job only, so summing "usage" over the items counts each call once.';
	return {
		displayName: 'Include Usage',
		name: 'includeUsage',
		type: 'boolean',
		default: false,
		description,
	};
}

/**
 * An operation's tool description: what the model reads to decide whether and how to call it.
 * Shown only when the node runs as a tool; n8n uses it instead of "<action> in Job Search".
 */
export function toolDescriptionProperty(text: string): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		typeOptions: { rows: 4 },
		displayOptions: { show: { '@tool': [true] } },
		description: 'What the AI model reads about this tool. The default says what it returns, what it costs and how to call it well.',
	};
}

/** What an AI Agent's tool call returns per job (n8n's three choices for a tool's output), and its Fields list. */
export function toolOutputProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Output',
			name: 'toolOutput',
			type: 'options',
			default: 'simplified',
			displayOptions: { show: { '@tool': [true] } },
			description: 'What the AI model gets for each job. Fewer fields leave the model more room to reason.',
			options: [
				{ name: 'Raw', value: 'raw', description: 'The whole record, as the service returns it' },
				{ name: 'Selected Fields', value: 'selected', description: 'Only the fields listed in Fields, and always uid' },
				{ name: 'Simplified', value: 'simplified', description: 'The fields a model needs to judge a job, in few characters' },
			],
		},
		{
			displayName: 'Fields',
			name: 'toolFields',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. title, budget.hourlyRate.max, client.countryCode',
			displayOptions: { show: { '@tool': [true], toolOutput: ['selected'] } },
			description: 'Fields of the raw record, separated by commas; a dot reaches into an object. The uid is always included.',
		},
	];
}

/**
 * The escape hatch for filter keys the schema does not know yet, as an entry of the Options
 * collection of both nodes (n8n's rules keep optional JSON out of the top level); merged last, so
 * it wins. searchFiltersFromParameters reads it.
 */
export function additionalFiltersOption(): INodeProperties {
	return {
		displayName: ADDITIONAL_FILTERS_TITLE,
		name: ADDITIONAL_FILTERS,
		type: 'json',
		default: '{}',
		description:
			'Filter keys this node has no field for yet, as flat wire keys, e.g. {"budget.hourlyRate.min": "40"}. Merged last, so they win over the filter fields. The service refuses unknown keys.',
	};
}
