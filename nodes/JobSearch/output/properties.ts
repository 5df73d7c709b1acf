import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/** The Simplify switch of every node that outputs jobs: on by default, see simplifyJob. */
export function simplifyProperty(displayOptions?: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		...(displayOptions ? { displayOptions } : {}),
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
