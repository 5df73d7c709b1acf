import type { IExecuteFunctions } from 'n8n-workflow';

import { parseFieldList, type ToolOutput, type ToolOutputChoice } from '../../output';
import { operationError } from '../../transport/errors';

/**
 * Whether this run is an AI Agent's tool call. n8n runs a `usableAsTool` node as its `…Tool`
 * variant (n8n 2.8 and 2.41 both name it so, and show `@tool` fields by that suffix); the
 * context's isToolExecution() is only true on the supply-data path, so the type name decides.
 */
export function isToolCall(context: Pick<IExecuteFunctions, 'getNode'> & Partial<Pick<IExecuteFunctions, 'isToolExecution'>>): boolean {
	const type = context.getNode().type.split('.').pop() ?? '';
	return type.endsWith('Tool') || context.isToolExecution?.() === true;
}

/** Item `itemIndex`'s Output choice as a tool; Selected Fields with no field is refused before sending. */
export function readToolOutput(this: IExecuteFunctions, itemIndex: number): ToolOutputChoice {
	const asked = this.getNodeParameter('toolOutput', itemIndex, 'simplified') as ToolOutput;
	const output: ToolOutput = asked === 'raw' || asked === 'selected' ? asked : 'simplified';
	if (output !== 'selected') return { output, fields: [] };
	const fields = parseFieldList(this.getNodeParameter('toolFields', itemIndex, ''));
	if (fields.length > 0) return { output, fields };
	throw operationError(this.getNode(), 'invalid_input', `Fields is empty, and Output is Selected Fields [item ${itemIndex}]`, {
		itemIndex,
		description: 'List the fields the AI model should get, e.g. title, budget.hourlyRate.max (uid is always included), or set Output to Simplified.',
	});
}
