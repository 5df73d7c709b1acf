import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { operationError } from '../transport/errors';
import * as client from './client';
import * as job from './job';
import { runItems, type RunSettings } from './common/runItems';
import type { Operation, Resource, Router } from './common/types';

/** Which operation serves each resource and operation name: a table, so a new operation is one line. */
export const router: Router = {
	job: { search: job.search, get: job.get },
	client: { getActivity: client.getActivity, getHistory: client.getHistory },
};

export async function route(this: IExecuteFunctions, settings: RunSettings): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as Resource;
	const name = this.getNodeParameter('operation', 0) as string;
	const operation = (router[resource] as Record<string, Operation<unknown>> | undefined)?.[name];
	if (!operation) {
		throw operationError(this.getNode(), 'invalid_input', `The operation "${name}" of "${resource}" is not supported`, { itemIndex: 0 });
	}
	return [await runItems.call(this, operation, settings)];
}
