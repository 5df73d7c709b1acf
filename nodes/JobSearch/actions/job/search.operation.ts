import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeHint } from 'n8n-workflow';

import {
	FILTER_BY_KEY,
	MAX_ROWS_PER_CALL,
	searchFiltersFromParameters,
	toNodeProperties,
} from '../../filters';
import {
	DEFAULT_TOOL_MAX_JOBS,
	TOOL_DESCRIPTION_CHARS,
	compactJob,
	errorItem,
	type ToolOutputChoice,
	simplifyJob,
	toolShape,
	withCallUsage,
	withUsage,
} from '../../output';
import { numberOption } from '../../filters/numberOption';
import { DEFAULT_MAX_CREDIT_USD, MICROCENTS_PER_USD, PRICE_MICROCENTS, formatUsd } from '../../service/pricing';
import type { SearchJobsData, ToolResult, ToolUsage } from '../../transport';
import { operationError } from '../../transport/errors';
import { isToolCall, readToolOutput } from '../common/toolOutput';
import type { ItemRun } from '../common/types';
import { RETURN_ALL_FIRST_PAGE_UNDER_CAP, walkBackThroughTime } from './walk';

/** "1h, 6h, …": the wire values a model may give Search Period, from the schema. */
function searchPeriods(): string {
	const spec = FILTER_BY_KEY.get('searchPeriod');
	return spec && 'options' in spec ? spec.options.map((o) => o.value).join(', ') : '';
}

/** The Limit field's default (n8n's lint wants the literal 50 there too). */
const DEFAULT_LIMIT = 50;

export const toolDescription = [
	'Search Upwork job postings, newest first, with filters. Every returned job is billed, and one call returns at most the number of jobs the workflow allows: ask for few and narrow with filters rather than paging.',
	`Each job has uid, title, postedAt, budget, skills, connectsToApply, client facts and the first ${TOOL_DESCRIPTION_CHARS} characters of the description, ending in "…" when cut: to read a whole job, call Get Job with its uid.`,
	`Lists are comma-separated (keywords; country codes such as US, GB). Search Period is one of ${searchPeriods()}. A refused call says which field to fix; nothing is billed for it.`,
].join(' ');

export const properties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: `Return All reads every matching job, newest first, ${MAX_ROWS_PER_CALL.toLocaleString('en-US')} per request. Every row is billed: ${formatUsd(PRICE_MICROCENTS.search_jobs)} a job, ${formatUsd(MAX_ROWS_PER_CALL * PRICE_MICROCENTS.search_jobs)} per ${MAX_ROWS_PER_CALL.toLocaleString('en-US')} jobs. Max Credit per Execution in Options (${formatUsd(DEFAULT_MAX_CREDIT_USD * MICROCENTS_PER_USD)} unless you set it) caps a run: Return All reads one job to count the matches and goes on only if they fit.`,
		name: 'returnAllNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { returnAll: [true] } },
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1, maxValue: MAX_ROWS_PER_CALL },
		displayOptions: { show: { returnAll: [false] } },
		description: 'Max number of results to return',
		// n8n shows a hint as fixed text (it evaluates no expression there), so it gives the prices
		// at both ends; the node's own hint (limitOverCapHint) warns when the Limit set passes the cap.
		hint: `Each returned job costs ${formatUsd(PRICE_MICROCENTS.search_jobs)}: ${formatUsd(DEFAULT_LIMIT * PRICE_MICROCENTS.search_jobs)} for ${DEFAULT_LIMIT}, ${formatUsd(MAX_ROWS_PER_CALL * PRICE_MICROCENTS.search_jobs)} for ${MAX_ROWS_PER_CALL.toLocaleString('en-US')}. Runs over Max Credit are refused.`,
	},
	{
		displayName: 'Max Jobs per Tool Call',
		name: 'toolMaxJobs',
		type: 'number',
		default: DEFAULT_TOOL_MAX_JOBS,
		typeOptions: { minValue: 1, maxValue: MAX_ROWS_PER_CALL, numberPrecision: 0 },
		displayOptions: { show: { '@tool': [true] } },
		description: `The most jobs one call of the AI model may return, whatever Limit or Return All say (each job costs ${formatUsd(PRICE_MICROCENTS.search_jobs)}). The model cannot raise it.`,
	},
	...toNodeProperties({ omit: ['limit'] }),
];

/**
 * Shown in the node's panels before a run when the Limit set could cost more than Max Credit per
 * Execution: n8n evaluates a hint's condition (not its text) against the node's parameters.
 */
export const limitOverCapHint: NodeHint = {
	message: `At this Limit a run could cost more than Max Credit per Execution (${formatUsd(DEFAULT_MAX_CREDIT_USD * MICROCENTS_PER_USD)} unless set in Options), so it would be refused before sending. Lower Limit, or raise Max Credit.`,
	type: 'warning',
	location: 'outputPane',
	whenToDisplay: 'beforeExecution',
	displayCondition: `={{ (() => { const p = $parameter; const o = p.options || {}; const cap = o.maxCreditUsd === undefined || o.maxCreditUsd === '' ? ${DEFAULT_MAX_CREDIT_USD} : Number(o.maxCreditUsd); return p.resource === 'job' && p.operation === 'search' && p.returnAll !== true && cap > 0 && Number(p.limit) * ${PRICE_MICROCENTS.search_jobs} > cap * ${MICROCENTS_PER_USD}; })() }}`,
};

/** What one item sends: its search_jobs body, and how to shape the answer. */
export interface SearchRequest {
	body: IDataObject;
	returnAll: boolean;
	simplify: boolean;
	/** Run as an AI Agent's tool: rows capped, and Output (not Simplify) shapes each job. */
	tool: boolean;
	toolOutput?: ToolOutputChoice;
}

/** Rows to ask for: the Limit, or the service maximum with Return All; as a tool, never past its cap. */
function rowsToAsk(this: IExecuteFunctions, itemIndex: number, tool: boolean): { limit: number; returnAll: boolean } {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? MAX_ROWS_PER_CALL : (this.getNodeParameter('limit', itemIndex, DEFAULT_LIMIT) as number);
	if (!tool) return { limit, returnAll };
	const cap = numberOption(this.getNodeParameter('toolMaxJobs', itemIndex, DEFAULT_TOOL_MAX_JOBS), DEFAULT_TOOL_MAX_JOBS) || DEFAULT_TOOL_MAX_JOBS;
	// A number the model typed may arrive as text; anything not a number is left for validation.
	const asked = typeof limit === 'string' && (limit as string).trim() !== '' ? Number(limit) : limit;
	return { limit: typeof asked === 'number' && asked > cap ? cap : asked, returnAll: false };
}

export function prepare(this: IExecuteFunctions, itemIndex: number): SearchRequest {
	const tool = isToolCall(this);
	const { limit, returnAll } = rowsToAsk.call(this, itemIndex, tool);
	const { body, issues } = searchFiltersFromParameters(
		(name) => this.getNodeParameter(name, itemIndex, {}),
		{ limit },
		{ timeZone: this.getTimezone() },
		{ limit: 'Limit' },
	);
	if (issues.length > 0) {
		throw operationError(this.getNode(), 'invalid_input', `${issues[0].message} [item ${itemIndex}]`, {
			itemIndex,
			description:
				issues.length > 1
					? issues.map((i) => i.message).join('\n')
					: 'Fix the field in the node, or in Additional Filters (JSON) if the key came from there. Nothing was sent.',
		});
	}
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const toolOutput = tool ? readToolOutput.call(this, itemIndex) : undefined;
	return { body: body as IDataObject, returnAll, simplify, tool, toolOutput };
}

/**
 * A search's first request: its Limit, or Return All's first page, which under Max Credit asks
 * for one job (see walkBackThroughTime): the worst case known before anything is sent.
 */
export function plannedCall(request: SearchRequest): { tool: 'search_jobs'; body: IDataObject } {
	return { tool: 'search_jobs', body: request.returnAll ? { ...request.body, limit: RETURN_ALL_FIRST_PAGE_UNDER_CAP } : request.body };
}

/** What to tell the user when Return All stopped part-way: what it had read and paid for. */
function interruptedNote(read: number, total: number, outputAs: ItemRun['options']['output'] | 'error'): string {
	const note = `Return All had read ${read.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} matching jobs (billed) when this stopped it.`;
	const where = {
		error: 'With "On Error" set to continue, the node outputs those jobs and then an item with this message.',
		perJob: 'They are the items before this one.',
		wholeResponse: 'They are in the "jobs" list of the item before this one.',
	};
	return `${note} ${where[outputAs]}`;
}

export async function send(this: IExecuteFunctions, run: ItemRun, request: SearchRequest): Promise<INodeExecutionData[]> {
	const { itemIndex, options } = run;
	let jobs: IDataObject[];
	let total: number;
	let usage: ToolUsage;
	let stoppedBy: Error | undefined;
	if (request.returnAll) {
		const walk = await walkBackThroughTime(run, request.body, this.getNode());
		({ jobs, total, usage } = walk);
		stoppedBy = walk.interruptedBy;
		for (const message of walk.warnings) this.addExecutionHints?.({ message: `${message} [item ${itemIndex}]`, location: 'outputPane' });
		if (stoppedBy && !this.continueOnFail()) {
			const error = stoppedBy as Error & { description?: string };
			error.description = [error.description, interruptedNote(jobs.length, total, 'error')].filter(Boolean).join(' ');
			throw error;
		}
	} else {
		const result = (await run.call('search_jobs', request.body)) as ToolResult<SearchJobsData>;
		({ jobs, total } = result.data);
		usage = result.usage;
	}
	const shape = request.toolOutput ? toolShape(request.toolOutput, compactJob) : request.simplify ? simplifyJob : undefined;
	// Shaped in place: a walk of 50,000 rows keeps one array, not a second copy of every page.
	if (shape) for (let i = 0; i < jobs.length; i++) jobs[i] = shape(jobs[i]);
	const usageToShow = options.includeUsage ? usage : undefined;
	const pairedItem = { item: itemIndex };
	const output: INodeExecutionData[] =
		options.output === 'wholeResponse'
			? [{ json: withUsage({ jobs, total }, usageToShow), pairedItem }]
			: withCallUsage(jobs, usageToShow).map((json) => ({ json, pairedItem }));
	if (stoppedBy) {
		const item = errorItem(stoppedBy, itemIndex);
		item.json.description = [item.json.description, interruptedNote(jobs.length, total, options.output)].filter(Boolean).join(' ');
		output.push(item);
	}
	return output;
}
