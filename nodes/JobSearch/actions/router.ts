import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { operationError } from '../transport/errors';
import * as client from './client';
import * as job from './job';
import { runItems, type RunSettings } from './common/runItems';
import { refusalItem, type FieldAtFault } from './common/toolAnswer';
import type { Operation, Resource, Router } from './common/types';

/** The value n8n gives Resource or Operation when "Custom API Call" is chosen, in workflows saved while it was offered. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** Which operation serves each resource and operation name: a table, so a new operation is one line. */
export const router: Router = {
	job: { search: job.search, get: job.get },
	client: { getActivity: client.getActivity, getHistory: client.getHistory },
};

export async function route(this: IExecuteFunctions, settings: RunSettings): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as Resource;
	const name = this.getNodeParameter('operation', 0) as string;
	const operation = (router[resource] as Record<string, Operation<unknown>> | undefined)?.[name];
	if (!operation && [resource, name].includes(CUSTOM_API_CALL)) {
		throw operationError(this.getNode(), 'invalid_input', 'Custom API Call is not an operation of Job Search [item 0]', {
			itemIndex: 0,
			description: 'Choose Search, Get, Get Activity or Get History in Resource and Operation. The node calls the service only through its own operations, with their checks and credit cap.',
		});
	}
	if (!operation) {
		throw operationError(this.getNode(), 'invalid_input', `The operation "${name}" of "${resource}" is not supported`, { itemIndex: 0 });
	}
	if (!settings.toolCall) return [await runItems.call(this, operation, settings)];
	try {
		return [await runItems.call(this, operation, settings)];
	} catch (error) {
		// As a tool, the refusal is the answer: a model reads it and calls again, where a thrown
		// error would fail the agent's execution or reach the model as an empty message.
		return [[refusalItem.call(this, error, (code) => inputFieldsOf(operation, code))]];
	}
}

const JOB_UID: FieldAtFault = { path: 'jobUid', label: 'Job UID' };
const LIMIT: FieldAtFault = { path: 'limit', label: 'Limit' };
const ADDITIONAL_FILTERS: FieldAtFault = { path: 'options.additionalFilters', label: 'Additional Filters (JSON)' };

/** The field a refusal of an operation's input is about, when the error itself names none. */
function inputFieldsOf(operation: Operation<unknown>, errorCode: string): FieldAtFault[] {
	if (operation.keyedByJobUid) return ['invalid_input', 'validation_error', 'not_found'].includes(errorCode) ? [JOB_UID] : [];
	// A search's input the service refuses is what the node does not check: keys of Additional
	// Filters. What passes the credit cap is its rows: the limit.
	if (errorCode === 'credit_cap_reached') return [LIMIT];
	return errorCode === 'validation_error' ? [ADDITIONAL_FILTERS] : [];
}
