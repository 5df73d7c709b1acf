import type { INodeProperties } from 'n8n-workflow';

/** The jobUid parameter, shared by every operation that works on one job. */
export function jobUidField(show: { resource: string[]; operation: string[] }): INodeProperties {
	return {
		displayName: 'Job UID',
		name: 'jobUid',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 1955020056847176693',
		description:
			'The uid of a job (a string of digits): map the uid field of a Search result. A job link ending in ~02&lt;uid&gt; works too.',
		displayOptions: { show },
	};
}
