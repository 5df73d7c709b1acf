import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { operationError } from '../transport/errors';
import * as client from './client';
import * as job from './job';
import { runItems } from './common/runItems';
import type { Resource, Router } from './types';

/** Which handler serves each resource and operation: a table, so a new operation is one line. */
export const router: Router = {
	job: { search: job.search.execute, get: job.get.execute },
	client: { getActivity: client.getActivity.execute, getHistory: client.getHistory.execute },
};

export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as Resource;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = (router[resource] as Record<string, Router[Resource][keyof Router[Resource]]> | undefined)?.[
		operation
	];
	if (!handler) {
		throw operationError(this.getNode(), 'invalid_input', `The operation "${operation}" of "${resource}" is not supported`);
	}
	return [await runItems.call(this, handler)];
}
