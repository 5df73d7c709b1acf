// The examples/ workflows as the e2e imports them: each with a fixed id, and the reference
// server's credential on this package's nodes (the examples ship without credentials: a user
// picks their own). Also the schema-preview workflow (Manual Trigger -> Search Jobs -> Next Node,
// never run). Writes <out>/*.json for `n8n import:workflow --separate` and <manifest> (file -> id).
// Usage: node prepare.mjs <repo> <out dir> <manifest file>
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'fs';
import { join } from 'path';

const [repo, out, manifestFile] = process.argv.slice(2);
const PACKAGE = 'n8n-nodes-job-search.';
const credential = { jobSearchApi: { id: 'jobSearchLocal', name: 'Job Search API (reference server)' } };
mkdirSync(out, { recursive: true });

const manifest = {};
const files = readdirSync(join(repo, 'examples')).filter((f) => f.endsWith('.json')).sort();
files.forEach((file, index) => {
	const workflow = JSON.parse(readFileSync(join(repo, 'examples', file), 'utf8'));
	workflow.id = `jobSearchExmpl${String(index + 1).padStart(2, '0')}`;
	for (const node of workflow.nodes) if (node.type.startsWith(PACKAGE)) node.credentials = credential;
	writeFileSync(join(out, file), JSON.stringify(workflow));
	manifest[file] = { id: workflow.id, name: workflow.name, nodes: workflow.nodes.map((n) => ({ name: n.name, type: n.type, typeVersion: n.typeVersion })) };
});

const preview = JSON.parse(readFileSync(new URL('./schema-preview.json', import.meta.url), 'utf8'));
for (const node of preview.nodes) if (node.type.startsWith(PACKAGE)) node.credentials = credential;
writeFileSync(join(out, 'schema-preview.json'), JSON.stringify(preview));
manifest['schema-preview.json'] = { id: preview.id, name: preview.name, nodes: [] };
writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
console.log(`  prepared ${files.length} examples and the schema-preview workflow`);
