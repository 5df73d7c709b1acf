import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ToolName } from '../../filters';
import { PRICE_MICROCENTS, formatUsd } from '../../service/pricing';
import { withUsage } from '../../output';
import { readJobUid } from '../common/jobUid';
import { callPremium } from '../common/premium';
import type { ItemRun, Operation } from '../common/types';

export interface ClientLookupRequest {
	body: IDataObject;
}

const TOOL_DESCRIPTIONS = {
	getActivity: `Get how much competition an Upwork job has, by the job's uid: proposals so far, the client's last activity, candidates interviewed, invites sent and unanswered. Costs ${formatUsd(PRICE_MICROCENTS.get_client_activity)} a call and needs the premium addon (a plan without it is refused).`,
	getHistory: `Get the work history of a job's client, by the job's uid: past contracts with title, freelancer, dates, amount charged, and the feedback given each way. Costs ${formatUsd(PRICE_MICROCENTS.get_client_history)} a call and needs the premium addon (a plan without it is refused).`,
} as const;

/**
 * A premium lookup by job uid whose answer is output as is: Get Client Activity and Get Client
 * History differ only in the operation name and the tool.
 */
export function clientLookup(
	operation: 'getActivity' | 'getHistory',
	tool: Extract<ToolName, 'get_client_activity' | 'get_client_history'>,
): Operation<ClientLookupRequest> {
	return {
		toolDescription: TOOL_DESCRIPTIONS[operation],
		keyedByJobUid: true,

		prepare(this: IExecuteFunctions, itemIndex: number): ClientLookupRequest {
			return { body: { jobUid: readJobUid.call(this, itemIndex) } };
		},

		plannedCall: (request) => ({ tool, body: request.body }),

		async send(this: IExecuteFunctions, run: ItemRun, request: ClientLookupRequest): Promise<INodeExecutionData[]> {
			const outcome = await callPremium(run, tool, request.body);
			if ('declined' in outcome) return outcome.declined;
			const { data, usage } = outcome.result;
			return [{ json: withUsage(data, run.options.includeUsage ? usage : undefined), pairedItem: { item: run.itemIndex } }];
		},
	};
}
