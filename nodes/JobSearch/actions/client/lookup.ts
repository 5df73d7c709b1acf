import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ToolName } from '../../filters';
import { withUsage } from '../../output';
import { jobUidField } from '../common/fields';
import { readJobUid } from '../common/jobUid';
import { callPremium } from '../common/premium';
import type { ItemRun, Operation } from '../types';

export interface ClientLookupRequest {
	body: IDataObject;
}

/**
 * A premium lookup by job uid whose answer is output as is: Get Client Activity and Get Client
 * History differ only in the operation name and the tool.
 */
export function clientLookup(
	operation: 'getActivity' | 'getHistory',
	tool: Extract<ToolName, 'get_client_activity' | 'get_client_history'>,
): Operation<ClientLookupRequest> & { description: INodeProperties[] } {
	return {
		description: [jobUidField({ resource: ['client'], operation: [operation] })],

		prepare(this: IExecuteFunctions, itemIndex: number): ClientLookupRequest {
			return { body: { jobUid: readJobUid.call(this, itemIndex) } };
		},

		async send(this: IExecuteFunctions, run: ItemRun, request: ClientLookupRequest): Promise<INodeExecutionData[]> {
			const outcome = await callPremium(run, tool, request.body);
			if ('declined' in outcome) return outcome.declined;
			const { data, usage } = outcome.result;
			return [{ json: withUsage(data, run.options.includeUsage ? usage : undefined), pairedItem: { item: run.itemIndex } }];
		},
	};
}
