import type { INodeProperties } from 'n8n-workflow';

import * as getActivity from './getActivity.operation';
import * as getHistory from './getHistory.operation';

export { getActivity, getHistory };

/** The Client resource's Operation field; the node's description says where it shows. */
export const operationField: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Get Activity',
			value: 'getActivity',
			description:
				"Get activity on a job: proposals, the client's last activity, interviews and invites (premium addon; items asking for the same job share one billed lookup)",
			action: 'Get client activity',
		},
		{
			name: 'Get History',
			value: 'getHistory',
			description:
				"Get the client's work history and feedback from previous freelancers (premium addon; items asking for the same job share one billed lookup)",
			action: 'Get client history',
		},
	],
	default: 'getActivity',
};
