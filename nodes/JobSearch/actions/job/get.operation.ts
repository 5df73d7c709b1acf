import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { simplifyJobDetails, toolShape, withUsage, type ToolOutputChoice } from '../../output';
import { PRICE_MICROCENTS, formatUsd } from '../../service/pricing';
import { readJobUid } from '../common/jobUid';
import { callPremium } from '../common/premium';
import { isToolCall, readToolOutput } from '../common/toolOutput';
import type { ItemRun } from '../common/types';

export const toolDescription =
	`Get one Upwork job in full by its uid (a string of digits from a search result): the whole description, screening questions, budget, duration, workload and connects to apply. Costs ${formatUsd(PRICE_MICROCENTS.get_job)} a call, so call it only for jobs worth a closer look. An unknown uid is refused as not found.`;

export const keyedByJobUid = true;

/** What one item sends: its get_job body, and how to shape the answer. */
export interface GetJobRequest {
	body: IDataObject;
	simplify: boolean;
	/** Set when run as an AI Agent's tool: Output (not Simplify) shapes the job. */
	toolOutput?: ToolOutputChoice;
}

export function prepare(this: IExecuteFunctions, itemIndex: number): GetJobRequest {
	const jobUid = readJobUid.call(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const withClientHistory = options.includeClientHistory === true;
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const toolOutput = isToolCall(this) ? readToolOutput.call(this, itemIndex) : undefined;
	return { body: withClientHistory ? { jobUid, withClientHistory } : { jobUid }, simplify, toolOutput };
}

export function plannedCall(request: GetJobRequest): { tool: 'get_job'; body: IDataObject } {
	return { tool: 'get_job', body: request.body };
}

export async function send(this: IExecuteFunctions, run: ItemRun, request: GetJobRequest): Promise<INodeExecutionData[]> {
	const { itemIndex, options } = run;
	const outcome = await callPremium<IDataObject>(run, 'get_job', request.body);
	if ('declined' in outcome) return outcome.declined;
	const { data, usage } = outcome.result;
	const shape = request.toolOutput ? toolShape(request.toolOutput, simplifyJobDetails) : request.simplify ? simplifyJobDetails : undefined;
	let json = shape ? shape(data) : data;
	// Asked for in Options, so kept whatever the shape.
	if (shape && data.clientHistory !== undefined) json = { ...json, clientHistory: data.clientHistory };
	return [{ json: withUsage(json, options.includeUsage ? usage : undefined), pairedItem: { item: itemIndex } }];
}
