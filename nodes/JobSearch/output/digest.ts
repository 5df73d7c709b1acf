import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { budgetOf } from './budget';

/**
 * Telegram refuses a message over 4,096 characters (Slack and e-mail take more): the digest text
 * stays under it with room for a line the workflow puts before it.
 */
export const DIGEST_TEXT_MAX_CHARS = 4_000;

/** A title this long says what the job is; more would crowd other jobs out of the text. */
const TITLE_MAX_CHARS = 120;

export type TriggerOutput = 'perJob' | 'perPoll';

/** The trigger's Output option (in its Options collection): beside the digest it describes. */
export const outputOption: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	default: 'perJob',
	options: [
		{ name: 'One Item per Job', value: 'perJob', description: 'Each new job is an item: one message, sheet row or model call per job' },
		{
			name: 'One Item per Poll',
			value: 'perPoll',
			description: `The poll's new jobs in one item: "jobs" (newest first), "count", and "text", a ready-to-send list (title, budget, link) under ${DIGEST_TEXT_MAX_CHARS.toLocaleString('en-US')} characters`,
		},
	],
	description: 'Whether a poll sends each new job as an item, or one digest of them all',
};

function oneLine(text: unknown, max: number): string {
	const flat = String(text ?? '')
		.replace(/\s+/g, ' ')
		.trim();
	return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** One job in the text: its title and budget (and the searches that found it), then its link. */
function entry(job: IDataObject, foundBy?: (uid: string) => string[]): string {
	const budget = budgetOf(job);
	const title = oneLine(job.title, TITLE_MAX_CHARS) || 'Untitled job';
	const link = typeof job.externalLink === 'string' ? job.externalLink : typeof job.url === 'string' ? job.url : '';
	const searches = foundBy ? ` [${foundBy(String(job.uid)).join(', ')}]` : '';
	return [`• ${title}${budget ? ` (${budget})` : ''}${searches}`, link].filter(Boolean).join('\n');
}

const more = (count: number) => `and ${count.toLocaleString('en-US')} more`;

/**
 * The ready-to-send list of `jobs` (newest first): as many whole entries as fit under
 * DIGEST_TEXT_MAX_CHARS, then "and N more" when some did not.
 */
export function digestText(jobs: IDataObject[], foundBy?: (uid: string) => string[]): string {
	const head = `${jobs.length.toLocaleString('en-US')} new job${jobs.length === 1 ? '' : 's'}`;
	// Room for the longest possible tail ("\n\nand 1,000,000 more"), so the last entry never has to go.
	const room = DIGEST_TEXT_MAX_CHARS - `\n\n${more(10 ** 6)}`.length;
	let text = head;
	let shown = 0;
	for (const job of jobs) {
		const next = `${text}\n\n${entry(job, foundBy)}`;
		if (next.length > room) break;
		text = next;
		shown++;
	}
	return shown < jobs.length ? `${text}\n\n${more(jobs.length - shown)}` : text;
}
