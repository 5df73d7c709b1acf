import { itemRunners, type ItemsTask, type Variant } from './itemsRuns';

/**
 * The memory half of items.bench.ts, in a process of its own so that its peak is its own: one
 * variant turns its searches into items once; reports the peak RSS over the loaded baseline and
 * the heap the output still holds after a full GC.
 */
export interface MemoryReport {
	rows: number;
	peakRssMb: number;
	retainedHeapMb: number;
}

const MB = 1024 * 1024;

function gc(): void {
	(global as unknown as { gc: () => void }).gc();
}

async function main(task: ItemsTask & { variant: Variant }): Promise<MemoryReport> {
	const run = (await itemRunners(task))[task.variant];
	gc();
	const baseline = process.memoryUsage();
	const held = await run();
	const peakRssMb = (process.resourceUsage().maxRSS * 1024 - baseline.rss) / MB;
	gc();
	const retainedHeapMb = (process.memoryUsage().heapUsed - baseline.heapUsed) / MB;
	return { rows: held.length, peakRssMb, retainedHeapMb };
}

process.once('message', (task: ItemsTask & { variant: Variant }) => {
	main(task).then(
		(report) => process.send!(report, () => process.exit(0)),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
});
