import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';

// n8n-core writes ~/.n8n/config on first use: keep it out of the real home folder.
const userFolder = mkdtempSync(join(tmpdir(), 'job-search-schemas-'));
process.env.N8N_USER_FOLDER = userFolder;
const done = (code: number) => {
	rmSync(userFolder, { recursive: true, force: true });
	process.exit(code);
};

// `npm run schemas`: rewrites the output schemas (nodes/JobSearch/__schema__/) from what the node
// outputs. Required after any change to nodes/JobSearch/output/; a test fails until it is run.
void (async () => {
	const { buildOutputSchemas, schemaFileText } = await import('./outputSchemas/build');
	const root = join(__dirname, '..');
	let changed = 0;
	for (const [path, schema] of await buildOutputSchemas()) {
		const file = join(root, path);
		const text = schemaFileText(schema);
		if (existsSync(file) && readFileSync(file, 'utf8') === text) continue;
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, text);
		changed++;
		console.log(`rewrote ${path}`);
	}
	console.log(changed === 0 ? 'output schemas are up to date' : `${changed} output schema files rewritten`);
	done(0);
})().catch((error: unknown) => {
	console.error(error);
	done(1);
});
