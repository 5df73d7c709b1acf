import { fork } from 'child_process';
import { join } from 'path';
import { setFlagsFromString } from 'v8';
import { runInNewContext } from 'vm';

import { startServer } from '../server';
import type { MemoryReport } from './itemsChild';
import { itemRunners, type ItemsTask, type Variant } from './itemsRuns';

const ROWS_PER_CALL = 10_000;
const SIZES = [10_000, 50_000];
const ROUNDS = 5;

const VARIANTS: Array<{ variant: Variant; name: string }> = [
	{ variant: 'raw', name: 'raw keep-alive client, JSON.parse (floor)' },
	{ variant: 'helper', name: "n8n's helper alone (httpRequestWithAuthentication)" },
	{ variant: 'nodeNoSimplify', name: 'Job Search node, Simplify off' },
	{ variant: 'node', name: 'Job Search node, Simplify on (default)' },
	{ variant: 'nodeReturnAll', name: 'Job Search node, one item with Return All (walks back by page)' },
];

// A full GC before each timed run, so that no run pays for collecting the previous one's output.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function median(samples: number[]): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/** One variant's memory, in a child process of its own. */
function measureMemory(task: ItemsTask & { variant: Variant }): Promise<MemoryReport> {
	return new Promise((resolve, reject) => {
		const child = fork(join(__dirname, 'itemsChild.ts'), [], {
			execArgv: ['--expose-gc', '-r', 'ts-node/register/transpile-only'],
			stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
		});
		let report: MemoryReport | undefined;
		child.on('message', (m: MemoryReport) => (report = m));
		child.on('error', reject);
		child.on('exit', (code) => (report ? resolve(report) : reject(new Error(`memory of ${task.variant} exited ${code}`))));
		child.send(task);
	});
}

/**
 * Rows into items: 10,000 and 50,000 jobs (searches of 10,000 rows, the service maximum, over
 * disjoint time windows) turned into n8n items by the Job Search node in real n8n-core, against
 * a raw keep-alive client that parses the same JSON, and n8n's helper alone. Time: interleaved
 * rounds in this process, ratios within a round. Memory: each variant once in a child process
 * of its own, so its peak is its own. The server runs here, the same for every variant.
 */
export default async function itemsBench(): Promise<void> {
	const server = await startServer({
		jobs: Math.max(...SIZES) + 2_000,
		rateLimits: { enterprise: { requests: 1_000_000, windowMs: 60_000 } },
	});
	try {
		const { key } = await server.admin.createAccount({ plan: 'enterprise', poolMicrocents: 1_000_000 * 100_000_000 });
		// Newest first; each window holds ROWS_PER_CALL jobs (more on a tie at its start: Limit
		// cuts them) and ends 1 ms before the previous one starts.
		const jobs = [...server.admin.visibleJobs()].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
		const windows: ItemsTask['windows'] = [];
		let toMs = Date.parse(jobs[0].createdAt);
		for (let i = 0; i < Math.max(...SIZES) / ROWS_PER_CALL; i++) {
			const fromMs = Date.parse(jobs[(i + 1) * ROWS_PER_CALL - 1].createdAt);
			windows.push({ fromDate: new Date(fromMs).toISOString(), toDate: new Date(toMs).toISOString() });
			toMs = fromMs - 1;
		}

		console.log(
			`rows into items. time: median of ${ROUNDS} interleaved rounds, ratio to raw within a round. peak RSS: growth over the loaded process during one run, in a process of its own. held: heap the output still holds after a full GC`,
		);
		console.log('| rows | client | time ms | × raw | peak RSS MB | × raw | held MB | bytes held per row |');
		console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
		for (const size of SIZES) {
			const task: ItemsTask = { url: server.url, key, windows: windows.slice(0, size / ROWS_PER_CALL), rowsPerWindow: ROWS_PER_CALL };
			const runners = await itemRunners(task);
			const times = VARIANTS.map(() => [] as number[]);
			const ratios = VARIANTS.map(() => [] as number[]);
			for (let round = 0; round <= ROUNDS; round++) {
				const ms: number[] = [];
				for (const { variant } of VARIANTS) {
					gc();
					const started = process.hrtime.bigint();
					const rows = await runners[variant]();
					ms.push(Number(process.hrtime.bigint() - started) / 1e6);
					if (rows.length !== size) throw new Error(`${variant}: ${rows.length} rows for ${size}`);
				}
				if (round === 0) continue; // warm-up
				ms.forEach((t, v) => {
					times[v].push(t);
					ratios[v].push(t / ms[0]);
				});
			}
			const memory: MemoryReport[] = [];
			for (const { variant } of VARIANTS) memory.push(await measureMemory({ ...task, variant }));
			VARIANTS.forEach(({ name }, v) => {
				const m = memory[v];
				if (m.rows !== size) throw new Error(`${name}: ${m.rows} rows for ${size}`);
				console.log(
					`| ${size.toLocaleString('en-US')} | ${name} | ${median(times[v]).toFixed(0)} | ${median(ratios[v]).toFixed(2)}x | ${m.peakRssMb.toFixed(0)} | ${(m.peakRssMb / memory[0].peakRssMb).toFixed(2)}x | ${m.retainedHeapMb.toFixed(1)} | ${((m.retainedHeapMb * 1024 * 1024) / m.rows).toFixed(0)} |`,
				);
			});
		}
	} finally {
		await server.close();
	}
}
