import { mkdtempSync, readdirSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// Runs every bench/*.bench.ts in one process, so each prints ratios measured side by side.
async function main(): Promise<void> {
	const only = process.argv[2];
	const files = readdirSync(__dirname)
		.filter((f) => f.endsWith('.bench.ts'))
		.filter((f) => !only || f.includes(only))
		.sort();
	// One throwaway n8n user folder for every bench (n8n-core writes its config there), removed at the end.
	const n8nFolder = process.env.N8N_USER_FOLDER ? undefined : mkdtempSync(join(tmpdir(), 'n8n-job-search-bench-'));
	if (n8nFolder) process.env.N8N_USER_FOLDER = n8nFolder;
	try {
		for (const file of files) {
			console.log(`\n## ${file.replace('.bench.ts', '')}`);
			const mod = (await import(join(__dirname, file))) as { default: () => Promise<void> };
			await mod.default();
		}
	} finally {
		if (n8nFolder) rmSync(n8nFolder, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
