import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeHint } from 'n8n-workflow';

import {
	ADDITIONAL_FILTERS,
	ADDITIONAL_FILTERS_TITLE,
	FILTER_BY_KEY,
	FILTER_RANGES,
	GROUP_COLLECTIONS,
	MAX_ROWS_PER_CALL,
	searchFiltersFromParameters,
	toNodeProperties,
	toParameterName,
} from '../../filters';
import type { FilterIssue } from '../../filters/types';
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
import { isExactTotal, totalInWords } from '../../transport/envelope';
import { operationError } from '../../transport/errors';
import { aboutFields, argumentsOf, type FieldAtFault } from '../common/toolAnswer';
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
	`The answer holds total (how many jobs match in all), the jobs, and a note when they were capped or none matched. Each job has uid, title, url, postedAt, budget, skills, connectsToApply, client facts and the first ${TOOL_DESCRIPTION_CHARS} characters of the description, ending in "…" when cut: to read a whole job, call Get Job with its uid.`,
	`Lists are comma-separated (keywords; two-letter country codes such as US, GB). Search Period is one of ${searchPeriods()}. A refused call says which argument to change; nothing is billed for it.`,
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

/** As a tool: the rows the call asked for (every match with Return All) and the tool's cap on them. */
interface ToolRows {
	asked: number;
	cap: number;
}

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
	toolRows?: ToolRows;
}

/** Rows to ask for: the Limit, or the service maximum with Return All; as a tool, never past its cap. */
function rowsToAsk(this: IExecuteFunctions, itemIndex: number, tool: boolean): { limit: number; returnAll: boolean; toolRows?: ToolRows } {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? MAX_ROWS_PER_CALL : (this.getNodeParameter('limit', itemIndex, DEFAULT_LIMIT) as number);
	if (!tool) return { limit, returnAll };
	const cap = numberOption(this.getNodeParameter('toolMaxJobs', itemIndex, DEFAULT_TOOL_MAX_JOBS), DEFAULT_TOOL_MAX_JOBS) || DEFAULT_TOOL_MAX_JOBS;
	// A number the model typed may arrive as text; anything not a number is left for validation.
	const asked = typeof limit === 'string' && (limit as string).trim() !== '' ? Number(limit) : limit;
	const rows = { asked: returnAll ? Number.POSITIVE_INFINITY : asked, cap };
	return { limit: typeof asked === 'number' && asked > cap ? cap : asked, returnAll: false, toolRows: typeof asked === 'number' ? rows : undefined };
}

/** Where a filter's value is set in the node's parameters. */
function parameterPath(key: string): string {
	if (key === 'limit') return 'limit';
	if (key === ADDITIONAL_FILTERS) return `options.${ADDITIONAL_FILTERS}`;
	const spec = FILTER_BY_KEY.get(key);
	return spec ? `${GROUP_COLLECTIONS[spec.group].name}.${toParameterName(key)}` : `options.${ADDITIONAL_FILTERS}`;
}

/** The fields a refused filter is about, as its message names them: both bounds of a range. */
function fieldsAtFault(issue: FilterIssue): FieldAtFault[] {
	const orPath = parameterPath(ADDITIONAL_FILTERS);
	if (issue.key === ADDITIONAL_FILTERS) {
		// "…sets "limit", which the node sets itself. Remove it and use "Limit" instead": both are at stake.
		const limit: FieldAtFault[] = issue.message.includes('use "Limit"') ? [{ path: 'limit', label: '"Limit"' }] : [];
		return [{ path: orPath, label: ADDITIONAL_FILTERS_TITLE }, ...limit];
	}
	const field = (key: string, title: string): FieldAtFault => ({ path: parameterPath(key), label: `${title} (${key})`, orPath });
	const range = FILTER_RANGES.find((r) => r.min.key === issue.key);
	return range ? [field(range.min.key, range.min.title), field(range.max.key, range.max.title)] : [field(issue.key, issue.title)];
}

export function prepare(this: IExecuteFunctions, itemIndex: number): SearchRequest {
	const tool = isToolCall(this);
	const { limit, returnAll, toolRows } = rowsToAsk.call(this, itemIndex, tool);
	const { body, issues } = searchFiltersFromParameters(
		(name) => this.getNodeParameter(name, itemIndex, {}),
		{ limit },
		{ timeZone: this.getTimezone() },
		{ limit: 'Limit' },
	);
	if (issues.length > 0) {
		const error = operationError(this.getNode(), 'invalid_input', `${issues[0].message} [item ${itemIndex}]`, {
			itemIndex,
			description:
				issues.length > 1
					? issues.map((i) => i.message).join('\n')
					: 'Fix the field in the node, or in Additional Filters (JSON) if the key came from there. Nothing was sent.',
		});
		throw aboutFields(error, fieldsAtFault(issues[0]));
	}
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const toolOutput = tool ? readToolOutput.call(this, itemIndex) : undefined;
	return { body: body as IDataObject, returnAll, simplify, tool, toolOutput, toolRows };
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
	// A walk may read past a rounded first total: then it only knows that more match.
	const of = read < total ? ` of ${totalInWords(total)}` : '';
	const note = `Return All had read ${read.toLocaleString('en-US')}${of} matching jobs (billed) when this stopped it.`;
	const where = {
		error: 'With "On Error" set to continue, the node outputs those jobs and then an item with this message.',
		perJob: 'They are the items before this one.',
		wholeResponse: 'They are in the "jobs" list of the item before this one.',
	};
	return `${note} ${where[outputAs]}`;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * What a model is told beside the jobs: that none matched, or which bound cut the rows and how to
 * see others (the same call returns the same newest jobs again); nothing when every match is there.
 */
function toolNote(returned: number, total: number, rows: ToolRows | undefined, limitArgument: string | undefined): string | undefined {
	if (total === 0) return 'No job matched these filters. Nothing was charged. Widen them to find some, e.g. a longer search period or fewer keywords.';
	if (rows === undefined || (returned >= total && isExactTotal(total))) return undefined;
	// A search engine reports a large count rounded down to the thousand: the model is not told it is exact.
	const head = `Returned ${count(returned)} of ${totalInWords(total)} matching jobs, newest first`;
	if (rows.asked > rows.cap) {
		return `${head}: capped by the tool's row cap of ${count(rows.cap)} per call${Number.isFinite(rows.asked) ? ` (${count(rows.asked)} were asked)` : ''}. Ask with narrower filters (a shorter search period, more keywords, a budget) rather than for more rows.`;
	}
	const raise = limitArgument ? `raise "${limitArgument}" (up to ${count(rows.cap)})` : `the workflow sets the limit itself`;
	return `${head}, as many as the limit asked (${count(rows.asked)}). For others, ${raise} or narrow the filters.`;
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
	if (request.tool) {
		// One item, whatever the match count: n8n hands a model no item as "" or [], which reads as
		// "nothing found" as well as "failed", and rows alone do not say what the cap cut off.
		const limitArgument = argumentsOf(this.getNode().parameters, 'limit')[0];
		const note = toolNote(jobs.length, total, request.toolRows, limitArgument);
		return [{ json: withUsage({ total, jobs, ...(note ? { note } : {}) }, usageToShow), pairedItem }];
	}
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
