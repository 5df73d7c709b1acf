import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { JOB_UID_PATTERN } from '../../filters';
import { operationError } from '../../transport/errors';

// The Job UID field, the link patterns it checks as you type and the reader that checks the same
// value again before anything is sent: one file, so the two checks cannot drift apart.

/** Where a job's page lives: the service's own job links are this plus the uid. */
export const JOB_URL_PREFIX = 'https://www.upwork.com/jobs/~02';

/**
 * A job link: any http(s) address whose last "~" is followed by the uid, with or without the
 * "02" the service puts before it (".../jobs/~021955020056847176693", ".../~1955020056847176693/").
 */
export const JOB_LINK_PATTERN = '^\\s*https?://\\S*~(?:0[12])?[0-9]+(?:[/?#]\\S*)?\\s*$';

/** The uid inside a job link, as the one group n8n's extractValue expects. */
export const JOB_LINK_UID_PATTERN = '~(?:0[12])?([0-9]+)(?:[/?#]|\\s*$)';

// n8n checks a Fixed value against this as the user types, so it is also where someone who typed
// an expression without switching the field to Expression learns what to do.
const ID_MODE_HINT =
	'Digits only, such as 1955020056847176693. To map {{ $json.uid }} from an earlier node, switch the field to Expression.';

/**
 * The Job UID parameter of every operation that works on one job: a resource locator, so a pasted
 * job link works (By URL, checked as you type) as well as the uid itself (By ID, with a link to
 * the job).
 */
export function jobUidField(): INodeProperties {
	return {
		displayName: 'Job UID',
		name: 'jobUid',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'id', value: '' },
		description: 'The job to look up: its link, or its uid (map the uid field of a Search result)',
		hint: 'Items that ask for the same job share one lookup per execution: one request, billed once',
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

const uidPattern = new RegExp(JOB_UID_PATTERN);
const uidInLink = new RegExp(JOB_LINK_UID_PATTERN);
const LABEL = 'Job UID';
const EXAMPLE_UID = '1955020056847176693';

interface Slip {
	message: string;
	description: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What the user put in the field: the resource locator's value, or a plain value (what an
 * expression over the whole field, or an AI Agent's $fromAI, gives).
 */
function entered(raw: unknown): unknown {
	return isRecord(raw) && raw.__rl === true ? raw.value : raw;
}

function preview(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
	return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** Why `value` is not a job uid, in the user's words and with the way out. */
function slipOf(value: unknown): Slip {
	if (isRecord(value) || Array.isArray(value)) {
		const hasUid = isRecord(value) && (typeof value.uid === 'string' || typeof value.uid === 'number');
		return {
			message: `${LABEL} got ${Array.isArray(value) ? 'a list' : 'an object'} (${preview(value)}), not a job uid`,
			description: hasUid
				? 'Map its uid field instead of the whole item: {{ $json.uid }}, not {{ $json }}. Nothing was sent.'
				: 'Map the field that holds the uid, such as {{ $json.uid }}, not a whole item or list. Nothing was sent.',
		};
	}
	if (typeof value === 'number') {
		return {
			message: `${LABEL} got the number ${value}, which is not a whole uid (numbers this long lose digits)`,
			description: 'Keep the uid a string: map the "uid" field of a Search Jobs result, or paste the job link. Nothing was sent.',
		};
	}
	const text = typeof value === 'string' ? value.trim() : '';
	if (/\{\{[\s\S]*\}\}/.test(text)) {
		return {
			message: `${LABEL} holds the text "${preview(text)}": the field is Fixed, so n8n did not fill in the expression`,
			description: `Switch the field to Expression (hover over it and pick "Expression" above it), then keep ${text}. Nothing was sent.`,
		};
	}
	if (/^https?:\/\//i.test(text)) {
		return {
			message: `${LABEL} got the link "${preview(text)}", which holds no job uid`,
			description: `Paste the job's own link, which ends in ~02 and the uid (such as ~02${EXAMPLE_UID}), or the uid alone. Nothing was sent.`,
		};
	}
	const got = text === '' ? 'it is empty' : `got ${JSON.stringify(preview(text))}`;
	return {
		message: `${LABEL} must be a string of digits, such as ${EXAMPLE_UID}; ${got}`,
		description:
			'Paste a job link or a uid, or map the "uid" field of a Search Jobs result with {{ $json.uid }} as an Expression. Typed numbers lose digits: keep the uid a string.',
	};
}

/** The job uid of item `itemIndex`, from a link or the uid itself, checked before anything is sent. */
export function readJobUid(this: IExecuteFunctions, itemIndex: number): string {
	const value = entered(this.getNodeParameter('jobUid', itemIndex, '') as unknown);
	const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
	const uid = uidInLink.exec(text)?.[1] ?? text;
	if (text !== '' && uidPattern.test(uid)) return uid;
	const slip = slipOf(value);
	throw operationError(this.getNode(), 'invalid_input', `${slip.message} [item ${itemIndex}]`, {
		itemIndex,
		description: slip.description,
	});
}
