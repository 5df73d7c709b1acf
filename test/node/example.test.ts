import { readFileSync } from 'fs';
import { join } from 'path';
import type { IConnections, INode } from 'n8n-workflow';

import { INPUT_TYPE, runWorkflow } from '../harness';
import { useTestService } from '../support/service';

const service = useTestService();

describe('examples/search-then-get-job.json', () => {
	it('searches three jobs and gets each of them, within its credit cap', async () => {
		const { id, credentials } = await service.account('pro');
		const workflow = JSON.parse(readFileSync(join(__dirname, '../../examples/search-then-get-job.json'), 'utf8')) as {
			nodes: INode[];
			connections: IConnections;
		};
		const nodes = workflow.nodes.map((n) =>
			n.type === 'n8n-nodes-base.manualTrigger' ? { ...n, type: INPUT_TYPE, parameters: { items: '[{}]' } } : n,
		);
		const result = await runWorkflow({ nodes, connections: workflow.connections, credentials });
		expect(result.error).toBeUndefined();
		const found = result.items['Search Jobs'].map((i) => i.json.uid);
		expect(found).toHaveLength(3);
		expect(result.items['Get Job'].map((i) => [i.json.uid, i.pairedItem])).toEqual(found.map((uid, item) => [uid, { item }]));
		expect(service.server.admin.callLog(id).map((c) => c.tool)).toEqual(['search_jobs', 'get_job', 'get_job', 'get_job']);
	});
});
