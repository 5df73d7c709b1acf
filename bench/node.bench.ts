import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { startServer } from '../server';

/**
 * The Job Search node's "Concurrency" option, measured side by side: the same 200 Get Job items
 * through real n8n-core against the same server, which adds 10 ms to each request (a stand-in
 * for network latency), at concurrency 1 and 5. Also the Min Interval pacing, which must cost
 * exactly its interval per request and no more.
 */
export default async function nodeBench(): Promise<void> {
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-job-search-bench-'));
	const { chain, INPUT_TYPE, JOB_SEARCH_TYPE, runWorkflow } = await import('../test/harness');
	// A limit no run here reaches: the bench measures the node, not the service's 429 waits.
	const server = await startServer({ jobs: 300, faults: true, rateLimits: { enterprise: { requests: 1_000_000, windowMs: 60_000 } } });
	try {
		const { key } = await server.admin.createAccount({ plan: 'enterprise', poolMicrocents: 100 * 100_000_000 });
		const credentials = { apiKey: key, baseUrl: server.url };
		const uids = server.admin.visibleJobs().slice(0, 200).map((j) => ({ uid: j.uid }));

		const timeIt = async (options: Record<string, number>): Promise<number> => {
			server.admin.injectFault({ kind: 'delay', delayMs: 10, times: uids.length, tool: 'get_job' });
			const started = process.hrtime.bigint();
			const result = await runWorkflow({
				credentials,
				nodes: [
					{ name: 'Input', type: INPUT_TYPE, parameters: { items: JSON.stringify(uids) } },
					{ name: 'Get Job', type: JOB_SEARCH_TYPE, parameters: { resource: 'job', operation: 'get', jobUid: '={{ $json.uid }}', options: { maxCreditUsd: 0, ...options } } },
				],
				connections: chain('Input', 'Get Job'),
			});
			if (result.error) throw new Error(result.error.message);
			if (result.items['Get Job'].length !== uids.length) throw new Error('lost items');
			return Number(process.hrtime.bigint() - started) / 1e6;
		};

		await timeIt({ concurrency: 1 }); // warm-up: module loading and JIT
		const serial = await timeIt({ concurrency: 1 });
		const parallel = await timeIt({ concurrency: 5 });
		console.log(`200 Get Job items, 10 ms per request: concurrency 1 ${serial.toFixed(0)} ms, concurrency 5 ${parallel.toFixed(0)} ms`);
		console.log(`speed-up of concurrency 5: ${(serial / parallel).toFixed(2)}x`);

		const paced = await timeIt({ concurrency: 5, minIntervalMs: 20 });
		console.log(
			`Min Interval 20 ms at concurrency 5: ${paced.toFixed(0)} ms, ${(paced / (uids.length * 20)).toFixed(2)}x the 4,000 ms the pacing alone needs`,
		);
	} finally {
		await server.close();
	}
}
