import type { IExecuteFunctions } from 'n8n-workflow';

import { JOB_UID_PATTERN } from '../../filters';
import { operationError } from '../../transport/errors';

const uidPattern = new RegExp(JOB_UID_PATTERN);
// The service's own job links end in "~02<uid>", so a pasted link is as good as the uid.
const fromJobLink = /~0[12](\d+)(?:[/?#]|$)/;

/** The jobUid parameter of item `itemIndex`, checked before anything is sent. */
export function readJobUid(this: IExecuteFunctions, itemIndex: number): string {
	const raw = this.getNodeParameter('jobUid', itemIndex, '') as unknown;
	const text = (typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw : '').trim();
	const uid = fromJobLink.exec(text)?.[1] ?? text;
	if (uidPattern.test(uid)) return uid;
	const got = text === '' ? 'it is empty' : `got ${JSON.stringify(text.slice(0, 60))}`;
	throw operationError(
		this.getNode(),
		'invalid_input',
		`Job UID must be a string of digits, such as 1955020056847176693; ${got} [item ${itemIndex}]`,
		{
			itemIndex,
			description:
				'Map the "uid" field of a Search Jobs result, for example {{ $json.uid }}. Typed numbers lose digits: keep the uid a string.',
		},
	);
}
