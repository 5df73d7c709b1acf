import type { IExecuteFunctions } from 'n8n-workflow';

import { parseFieldList, type ToolOutput, type ToolOutputChoice } from '../../output';
import { operationError } from '../../transport/errors';

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
