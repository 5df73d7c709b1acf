import type { INodePropertyOptions } from 'n8n-workflow';

import * as getActivity from './getActivity.operation';
import * as getHistory from './getHistory.operation';

export { getActivity, getHistory };

/** The Client resource's operations, as its Operation field lists them. */
export const operations: INodePropertyOptions[] = [
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
];

/** The operation a new node of this resource starts with. */
export const defaultOperation = 'getActivity';
