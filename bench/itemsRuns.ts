import { mkdtempSync } from 'fs';
import { Agent, request } from 'http';
import { tmpdir } from 'os';
import { join } from 'path';
import type { IDataObject } from 'n8n-workflow';

export type Variant = 'raw' | 'helper' | 'nodeNoSimplify' | 'node' | 'nodeReturnAll';

/** What one measurement of items.bench.ts turns into items: searches of `rowsPerWindow` rows over `windows`. */
export interface ItemsTask {
	url: string;
	key: string;
	windows: Array<{ fromDate: string; toDate: string }>;
	rowsPerWindow: number;
}

/** A raw keep-alive client: one search per window, the body parsed with JSON.parse, every job kept. */
async function rawRun(task: ItemsTask): Promise<IDataObject[]> {
	const url = new URL(task.url);
	const agent = new Agent({ keepAlive: true, maxSockets: 1 });
	const rows: IDataObject[] = [];
	try {
		for (const window of task.windows) {
			const body = JSON.stringify({ ...window, limit: task.rowsPerWindow });
			const parsed = await new Promise<{ data: { jobs: IDataObject[] } }>((resolve, reject) => {
				const req = request(
					{
						agent,
						host: url.hostname,
						port: url.port,
						method: 'POST',
						path: '/v1/search_jobs',
						headers: { authorization: `Bearer ${task.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
					},
					(res) => {
						const chunks: Buffer[] = [];
						res.on('data', (c: Buffer) => chunks.push(c));
						res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { jobs: IDataObject[] } }));
					},
				);
				req.on('error', reject);
				req.end(body);
			});
			for (const job of parsed.data.jobs) rows.push(job);
		}
	} finally {
		agent.destroy();
	}
	return rows;
}

/** Each variant as a function that returns the rows or items it made. Loads the harness (n8n-core). */
export async function itemRunners(task: ItemsTask): Promise<Record<Variant, () => Promise<unknown[]>>> {
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-job-search-bench-'));
	const { chain, CREDENTIAL_ID, INPUT_TYPE, JOB_SEARCH_TYPE, registerNodeType, runWorkflow } = await import('../test/harness');
	const { HELPER_PROBE_TYPE, HelperProbe } = await import('./probe');
	registerNodeType(HELPER_PROBE_TYPE, new HelperProbe());
	const credentials = { apiKey: task.key, baseUrl: task.url };

	const helper = async (): Promise<unknown[]> => {
		const result = await runWorkflow({
			credentials,
			nodes: [
				{ name: 'Input', type: INPUT_TYPE, parameters: { items: JSON.stringify(task.windows.map((w) => ({ ...w, limit: task.rowsPerWindow }))) } },
				{
					name: 'Probe',
					type: HELPER_PROBE_TYPE,
					credentials: { jobSearchApi: { id: CREDENTIAL_ID, name: 'Job Search account' } },
					parameters: { tool: 'search_jobs', nodesOptions: true },
				},
			],
			connections: chain('Input', 'Probe'),
		});
		if (result.error) throw new Error(result.error.message);
		return result.items.Probe;
	};

	const node = (simplify: boolean) => async (): Promise<unknown[]> => {
		const result = await runWorkflow({
			credentials,
			nodes: [
				{ name: 'Input', type: INPUT_TYPE, parameters: { items: JSON.stringify(task.windows) } },
				{
					name: 'Search',
					type: JOB_SEARCH_TYPE,
					parameters: {
						resource: 'job',
						operation: 'search',
						limit: task.rowsPerWindow,
						basicFilters: { fromDate: '={{ $json.fromDate }}', toDate: '={{ $json.toDate }}' },
						simplify,
						// The bench reads far more than the default $1 cap allows, on the reference server.
						options: { maxCreditUsd: 0 },
					},
				},
			],
			connections: chain('Input', 'Search'),
		});
		if (result.error) throw new Error(result.error.message);
		return result.items.Search;
	};

	// One input item, Return All over the whole span: the node walks back through time itself.
	const walk = async (): Promise<unknown[]> => {
		const result = await runWorkflow({
			credentials,
			nodes: [
				{ name: 'Input', type: INPUT_TYPE, parameters: { items: '[{}]' } },
				{
					name: 'Search',
					type: JOB_SEARCH_TYPE,
					parameters: {
						resource: 'job',
						operation: 'search',
						returnAll: true,
						basicFilters: { fromDate: task.windows[task.windows.length - 1].fromDate, toDate: task.windows[0].toDate },
						options: { maxCreditUsd: 0 },
					},
				},
			],
			connections: chain('Input', 'Search'),
		});
		if (result.error) throw new Error(result.error.message);
		return result.items.Search;
	};

	return { raw: async () => await rawRun(task), helper, nodeNoSimplify: node(false), node: node(true), nodeReturnAll: walk };
}
