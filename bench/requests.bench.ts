import { Agent, request } from 'http';
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { ExecuteContext } from 'n8n-core';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startServer } from '../server';
import { HTTP_REQUEST_TYPE, LOOP_OVER_ITEMS_TYPE, loadN8nNodes } from './n8nNodesBase';
import { HELPER_PROBE_TYPE, HelperProbe } from './probe';

const ITEMS = 200;
const ROUNDS = 7;
const CONCURRENCIES = [1, 5];

function median(samples: number[]): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Time per request for 200 Get Job items against the same reference server (no added latency,
 * loopback), side by side in one run: a raw keep-alive HTTP client (the floor), n8n's helper
 * alone, the Job Search node, and n8n's HTTP Request node doing the same calls. Rounds are
 * interleaved, so a busy moment on the machine hits every variant alike; medians are printed.
 */
export default async function requestsBench(): Promise<void> {
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-job-search-bench-'));
	const harness = await import('../test/harness');
	const { chain, CREDENTIAL_ID, INPUT_TYPE, JOB_SEARCH_TYPE, registerNodeType, runWorkflow } = harness;
	const { httpRequest, loopOverItems } = loadN8nNodes();
	registerNodeType(HTTP_REQUEST_TYPE, httpRequest);
	registerNodeType(LOOP_OVER_ITEMS_TYPE, loopOverItems);
	registerNodeType(HELPER_PROBE_TYPE, new HelperProbe());

	const server = await startServer({ jobs: 300, rateLimits: { enterprise: { requests: 1_000_000, windowMs: 60_000 } } });
	const agents: Agent[] = [];
	try {
		const { key } = await server.admin.createAccount({ plan: 'enterprise', poolMicrocents: 10_000 * 100_000_000 });
		// The HTTP Request node's Header Auth credential reads name and value from the same stored credential.
		const credentials = { apiKey: key, baseUrl: server.url, name: 'Authorization', value: `Bearer ${key}` };
		const uids = server.admin.visibleJobs().slice(0, ITEMS).map((j) => ({ jobUid: j.uid }));
		const input = { name: 'Input', type: INPUT_TYPE, parameters: { items: JSON.stringify(uids) } };
		const jobSearchCredential = { jobSearchApi: { id: CREDENTIAL_ID, name: 'Job Search account' } };
		const httpRequestNode = (options: INodeParameters) => ({
			name: 'HTTP Request',
			type: HTTP_REQUEST_TYPE,
			typeVersion: 4.4,
			credentials: { httpHeaderAuth: { id: CREDENTIAL_ID, name: 'Header Auth account' } },
			parameters: {
				method: 'POST',
				url: `${server.url}/v1/get_job`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				sendBody: true,
				contentType: 'json',
				specifyBody: 'keypair',
				bodyParameters: { parameters: [{ name: 'jobUid', value: '={{ $json.jobUid }}' }] },
				options,
			},
		});

		const url = new URL(server.url);
		/** With `newConnectionEach`, a fresh agent per request, as n8n-core 2.8's helper makes one. */
		const raw = async (concurrency: number, newConnectionEach = false): Promise<number> => {
			const shared = new Agent({ keepAlive: true, maxSockets: concurrency });
			agents.push(shared);
			const post = (body: string) =>
				new Promise<{ data: IDataObject }>((resolve, reject) => {
					const req = request(
						{
							agent: newConnectionEach ? new Agent() : shared,
							host: url.hostname,
							port: url.port,
							method: 'POST',
							path: '/v1/get_job',
							headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
						},
						(res) => {
							const chunks: Buffer[] = [];
							res.on('data', (c: Buffer) => chunks.push(c));
							res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: IDataObject }));
						},
					);
					req.on('error', reject);
					req.end(body);
				});
			let next = 0;
			const out: IDataObject[] = [];
			const started = process.hrtime.bigint();
			await Promise.all(
				Array.from({ length: concurrency }, async () => {
					while (next < uids.length) {
						const i = next++;
						out[i] = (await post(JSON.stringify(uids[i]))).data;
					}
				}),
			);
			const ms = Number(process.hrtime.bigint() - started) / 1e6;
			if (out.filter((j) => j?.uid).length !== uids.length) throw new Error('raw client lost items');
			shared.destroy();
			return ms;
		};

		/** Runs a workflow and checks that `node` emitted one item per input item, over all its runs. */
		const n8nRun = async (node: string, spec: Omit<Parameters<typeof runWorkflow>[0], 'credentials'>): Promise<number> => {
			const started = process.hrtime.bigint();
			const result = await runWorkflow({ ...spec, credentials: credentials as never });
			const ms = Number(process.hrtime.bigint() - started) / 1e6;
			if (result.error) throw new Error(`${node}: ${result.error.message}`);
			const emitted = (result.run.data.resultData.runData[node] ?? []).reduce((n, task) => n + (task.data?.main?.[0]?.length ?? 0), 0);
			if (emitted !== uids.length) throw new Error(`${node} emitted ${emitted} items for ${uids.length}`);
			return ms;
		};

		const variants: Array<{ name: string; run: (concurrency: number) => Promise<number> }> = [
			{ name: 'raw keep-alive HTTP client (floor)', run: async (concurrency) => await raw(concurrency) },
			{
				name: "n8n's helper alone (httpRequestWithAuthentication)",
				run: async (concurrency) =>
					await n8nRun('Probe', {
						nodes: [input, { name: 'Probe', type: HELPER_PROBE_TYPE, credentials: jobSearchCredential, parameters: { concurrency, jobUid: '={{ $json.jobUid }}' } }],
						connections: chain('Input', 'Probe'),
					}),
			},
			{
				name: "n8n's helper alone, the node's request options",
				run: async (concurrency) =>
					await n8nRun('Probe', {
						nodes: [input, { name: 'Probe', type: HELPER_PROBE_TYPE, credentials: jobSearchCredential, parameters: { concurrency, jobUid: '={{ $json.jobUid }}', nodesOptions: true } }],
						connections: chain('Input', 'Probe'),
					}),
			},
			{
				name: 'Job Search node, Get Job',
				run: async (concurrency) =>
					await n8nRun('Get Job', {
						nodes: [
							input,
							{ name: 'Get Job', type: JOB_SEARCH_TYPE, parameters: { resource: 'job', operation: 'get', jobUid: '={{ $json.jobUid }}', options: { concurrency, maxCreditUsd: 0 } } },
						],
						connections: chain('Input', 'Get Job'),
					}),
			},
			{
				// The HTTP Request node starts every item's request at once; a user who wants N at a
				// time puts it in Loop Over Items with a batch size of N.
				name: 'HTTP Request node V3 in Loop Over Items (batch = concurrency)',
				run: async (concurrency) =>
					await n8nRun('HTTP Request', {
						nodes: [input, { name: 'Loop', type: LOOP_OVER_ITEMS_TYPE, typeVersion: 3, parameters: { batchSize: concurrency, options: {} } }, httpRequestNode({})],
						connections: {
							Input: { main: [[{ node: 'Loop', type: 'main', index: 0 }]] },
							Loop: { main: [[], [{ node: 'HTTP Request', type: 'main', index: 0 }]] },
							'HTTP Request': { main: [[{ node: 'Loop', type: 'main', index: 0 }]] },
						},
					}),
			},
			{ name: 'raw client, a new connection per request (as n8n-core 2.8 does)', run: async (concurrency) => await raw(concurrency, true) },
		];
		const [HELPER_WITH_NODE_OPTIONS, NODE] = [2, 3];
		const allAtOnce = async () =>
			await n8nRun('HTTP Request', { nodes: [input, httpRequestNode({})], connections: chain('Input', 'HTTP Request') });

		// What each does per item, counted on n8n's side: credential reads (a database read and a
		// decryption in n8n), credential applications (expressions resolved), parameter reads.
		const counters = { credentialReads: 0, authentications: 0, parameterReads: 0 };
		const restores: Array<() => void> = [];
		const count = (proto: object, method: string, counter: keyof typeof counters) => {
			const target = proto as Record<string, (...args: unknown[]) => unknown>;
			const original = target[method];
			target[method] = function (this: unknown, ...args: unknown[]) {
				counters[counter]++;
				return original.apply(this, args);
			};
			restores.push(() => (target[method] = original));
		};
		count(harness.HarnessCredentialsHelper.prototype, 'getDecrypted', 'credentialReads');
		count(harness.HarnessCredentialsHelper.prototype, 'authenticate', 'authentications');
		// ExecuteContext binds getNodeParameter per instance; every read goes through this base method.
		let base: object = ExecuteContext.prototype;
		while (!Object.prototype.hasOwnProperty.call(base, '_getNodeParameter')) base = Object.getPrototypeOf(base) as object;
		count(base, '_getNodeParameter', 'parameterReads');
		const perItem: string[] = [];
		for (const [name, run] of [
			[variants[1].name, () => variants[1].run(1)],
			[variants[NODE].name, () => variants[NODE].run(1)],
			['HTTP Request node V3', allAtOnce],
		] as const) {
			Object.assign(counters, { credentialReads: 0, authentications: 0, parameterReads: 0 });
			await run();
			const each = (n: number) => (n / uids.length).toFixed(2);
			perItem.push(`| ${name} | ${each(counters.credentialReads)} | ${each(counters.authentications)} | ${each(counters.parameterReads)} |`);
		}
		for (const restore of restores) restore();

		// Per round and concurrency: ms per request of each variant. Ratios are taken within a
		// round (the variants ran back to back), then the median over rounds: the machine is shared.
		const perRequest = new Map<string, number[]>();
		const ratios = new Map<string, number[]>();
		const push = (map: Map<string, number[]>, name: string, value: number) => map.set(name, [...(map.get(name) ?? []), value]);
		for (let round = 0; round <= ROUNDS; round++) {
			for (const concurrency of CONCURRENCIES) {
				const times: number[] = [];
				for (const variant of variants) times.push((await variant.run(concurrency)) / uids.length);
				if (round === 0) continue; // warm-up: module loading and JIT
				variants.forEach((variant, v) => {
					push(perRequest, `${v}|${concurrency}`, times[v]);
					push(ratios, `${v}|${concurrency}`, times[v] / times[0]);
				});
				// The node against n8n's helper sending the node's request options: what the node adds.
				push(ratios, `own|${concurrency}`, times[NODE] / times[HELPER_WITH_NODE_OPTIONS]);
				push(perRequest, `own|${concurrency}`, times[NODE] - times[HELPER_WITH_NODE_OPTIONS]);
			}
			const ms = (await allAtOnce()) / uids.length;
			if (round > 0) push(perRequest, 'all at once', ms);
		}

		console.log(
			`${ITEMS} Get Job items, loopback, no added latency, server in this process; median of ${ROUNDS} interleaved rounds: ms per request, and its ratio to the raw client in the same round`,
		);
		console.log(`| client | ${CONCURRENCIES.map((c) => `concurrency ${c} ms | × raw`).join(' | ')} |`);
		console.log(`|---|${CONCURRENCIES.map(() => '---:|---:').join('|')}|`);
		variants.forEach((variant, v) => {
			const cells = CONCURRENCIES.map((c) => `${median(perRequest.get(`${v}|${c}`)!).toFixed(3)} | ${median(ratios.get(`${v}|${c}`)!).toFixed(2)}x`);
			console.log(`| ${variant.name} | ${cells.join(' | ')} |`);
		});
		console.log(`HTTP Request node V3 with no loop (its default: every item's request started at once): ${median(perRequest.get('all at once')!).toFixed(3)} ms per request`);
		for (const c of CONCURRENCIES) {
			const own = median(perRequest.get(`own|${c}`)!);
			const floor = median(perRequest.get(`0|${c}`)!);
			console.log(
				`concurrency ${c}: the node's own work ${own.toFixed(3)} ms per request (node − helper with the node's options; node / helper ${median(ratios.get(`own|${c}`)!).toFixed(2)}x); floor + own work = ${((floor + own) / floor).toFixed(2)}x the floor`,
			);
		}
		console.log('Per item, counted in n8n-core (one execution of 200 items, concurrency 1):');
		console.log('| client | credential reads | credential applications | parameter reads |');
		console.log('|---|---:|---:|---:|');
		for (const line of perItem) console.log(line);
	} finally {
		for (const agent of agents) agent.destroy();
		await server.close();
	}
}
