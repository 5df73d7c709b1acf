import type { INodeProperties } from 'n8n-workflow';

import { JOB_LINK_PATTERN, JOB_LINK_UID_PATTERN, JOB_URL_PREFIX } from './jobLink';

// n8n checks a Fixed value against this as the user types, so it is also where someone who typed
// an expression without switching the field to Expression learns what to do.
const ID_MODE_HINT =
	'Digits only, such as 1955020056847176693. To map {{ $json.uid }} from an earlier node, switch the field to Expression.';

/**
 * The Job UID parameter, shared by every operation that works on one job: a resource locator, so
 * a pasted job link works (By URL, checked as you type) as well as the uid itself (By ID, with a
 * link to the job). Earlier workflows saved a plain string here; readJobUid still reads it.
 */
export function jobUidField(show: { resource: string[]; operation: string[] }): INodeProperties {
	return {
		displayName: 'Job UID',
		name: 'jobUid',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'id', value: '' },
		description: 'The job to look up: its link, or its uid (map the uid field of a Search result)',
		displayOptions: { show },
		modes: [
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: `e.g. ${JOB_URL_PREFIX}1955020056847176693`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: JOB_LINK_PATTERN,
							errorMessage: 'Paste a job link that ends in ~02 and the uid, such as ~021955020056847176693',
						},
					},
				],
				extractValue: { type: 'regex', regex: JOB_LINK_UID_PATTERN },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 1955020056847176693',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*[0-9]+\\s*$', errorMessage: ID_MODE_HINT },
					},
				],
				url: `=${JOB_URL_PREFIX}{{$value}}`,
			},
		],
	};
}
