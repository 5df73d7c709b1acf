// Every node of every example is a type and version this n8n knows (`n8n export:nodes`), so the
// import shows no unknown node. Usage: node check-nodes.mjs <export:nodes json> <manifest>
import { readFileSync } from 'fs';

const [exported, manifestFile] = process.argv.slice(2);
const known = new Map();
for (const type of JSON.parse(readFileSync(exported, 'utf8'))) {
	const versions = known.get(type.name) ?? new Set();
	for (const v of [type.version].flat()) versions.add(Number(v));
	known.set(type.name, versions);
}
// n8n makes the `…Tool` variant of a usableAsTool node when it loads the package; export:nodes
// lists it under that name too (the e2e checks n8n-nodes-job-search.jobSearchTool is there).
let failed = false;
for (const [file, { nodes }] of Object.entries(JSON.parse(readFileSync(manifestFile, 'utf8')))) {
	for (const node of nodes) {
		if (!known.get(node.type)?.has(Number(node.typeVersion))) {
			console.error(`  ${file}: node "${node.name}" is ${node.type} v${node.typeVersion}, which this n8n does not know`);
			failed = true;
		}
	}
	if (nodes.length) console.log(`  ${file}: ${nodes.length} nodes, every type and version known`);
}
process.exit(failed ? 1 : 0);
