import { readdirSync } from 'fs';
import { join } from 'path';

// Runs every bench/*.bench.ts in one process, so each prints ratios measured side by side.
async function main(): Promise<void> {
	const only = process.argv[2];
	const files = readdirSync(__dirname)
		.filter((f) => f.endsWith('.bench.ts'))
		.filter((f) => !only || f.includes(only))
		.sort();
	for (const file of files) {
		console.log(`\n## ${file.replace('.bench.ts', '')}`);
		const mod = (await import(join(__dirname, file))) as { default: () => Promise<void> };
		await mod.default();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
