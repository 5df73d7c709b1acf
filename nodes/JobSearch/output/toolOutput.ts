import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { obj } from './objects';

/** How much of a description a model reads per job in a search; Get Job gives the rest. */
export const TOOL_DESCRIPTION_CHARS = 300;

/** Jobs one call of the model may return unless the user raises it: each row is billed. */
export const DEFAULT_TOOL_MAX_JOBS = 20;

/**
 * Whether this run is an AI Agent's tool call. n8n runs a `usableAsTool` node as its `…Tool`
 * variant (n8n 2.8 and 2.41 both name it so, and show `@tool` fields by that suffix); the
 * context's isToolExecution() is only true on the supply-data path, so the type name decides.
 */
export function isToolCall(context: Pick<IExecuteFunctions, 'getNode'> & Partial<Pick<IExecuteFunctions, 'isToolExecution'>>): boolean {
	const type = context.getNode().type.split('.').pop() ?? '';
	return type.endsWith('Tool') || context.isToolExecution?.() === true;
}

function usd(value: unknown): string | undefined {
	return typeof value === 'number' ? `$${Number.isInteger(value) ? value : value.toFixed(2)}` : undefined;
}

/** "$25-$50/h", "$40/h", "$500 fixed": one short string instead of four numeric fields. */
export function budgetOf(job: IDataObject): string | undefined {
	const budget = obj(job.budget);
	if (job.jobType === 'FIXED') return usd(budget.fixedBudget) && `${usd(budget.fixedBudget)} fixed`;
	const hourly = obj(budget.hourlyRate);
	// 0 is how the service writes "no rate" at the top level, not a rate of $0.
	const topRate = typeof job.hourlyRate === 'number' && job.hourlyRate > 0 ? job.hourlyRate : undefined;
	const [min, max] = [usd(hourly.min), usd(hourly.max) ?? usd(topRate)];
	if (!min && !max) return undefined;
	return min && max && min !== max ? `${min}-${max}/h` : `${max ?? min}/h`;
}

function shortened(text: unknown, max: number): string | undefined {
	if (typeof text !== 'string') return undefined;
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

function present(record: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(record).filter(([, v]) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)),
	);
}

/**
 * A job as a model needs it to judge the job and decide on a next step, in few characters: what
 * the job is, what it pays, what it costs to apply, who the client is, and the start of the
 * description (a "…" at its end means "call Get Job with this uid for the rest"). Keys without a
 * value are left out: a model reads every character and needs no stable columns.
 */
export function compactJob(job: IDataObject, descriptionChars = TOOL_DESCRIPTION_CHARS): IDataObject {
	const client = obj(job.client);
	const stats = obj(client.stats);
	return present({
		uid: job.uid,
		title: job.title,
		postedAt: job.createdAt,
		budget: budgetOf(job),
		skills: job.skills,
		category: job.category,
		experienceLevel: obj(job.vendor).experienceLevel,
		connectsToApply: job.applicationCost,
		client: present({
			country: client.countryCode,
			totalSpentUsd: stats.totalSpent,
			hireRatePercent: stats.hireRate,
			rating: stats.feedbackRate,
			paymentVerified: client.paymentMethodVerified,
		}),
		description: shortened(job.description, descriptionChars),
	});
}

/**
 * The tool's description for one operation: what the model reads to decide whether and how to
 * call it. Shown only when the node runs as a tool; n8n uses it instead of "<action> in Job Search".
 */
export function toolDescriptionProperty(show: IDisplayOptions['show'], text: string): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		typeOptions: { rows: 4 },
		displayOptions: { show: { ...show, '@tool': [true] } },
		description: 'What the AI model reads about this tool. The default says what it returns, what it costs and how to call it well.',
	};
}
