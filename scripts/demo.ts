import { randomBytes } from 'crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { IConnections, IDataObject, INode } from 'n8n-workflow';

import { startServer } from '../server';
import { formatUsd } from '../nodes/JobSearch/service/pricing';

/**
 * `npm run demo`: the example search workflow (examples/search-then-get-job.json: Search Jobs,
 * then Get Job for the top results; a search, not the job-alert trigger) run
 * inside real n8n-core against the embedded reference server. No key and no build needed.
 */

const EXAMPLE = join(__dirname, '..', 'examples', 'search-then-get-job.json');

/** n8n-core keeps settings in ~/.n8n: give it a throwaway folder, with a key so it stays quiet. */
function throwawayN8nFolder(): string {
	const folder = mkdtempSync(join(tmpdir(), 'job-search-demo-'));
	mkdirSync(join(folder, '.n8n'));
	writeFileSync(join(folder, '.n8n', 'config'), JSON.stringify({ encryptionKey: randomBytes(24).toString('base64') }), {
		mode: 0o600,
	});
	process.env.N8N_USER_FOLDER = folder;
	return folder;
}

function loadExample(inputType: string): { nodes: INode[]; connections: IConnections } {
	const workflow = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { nodes: INode[]; connections: IConnections };
	// n8n-nodes-base is not installed here: the harness's input node stands in for the Manual Trigger.
	const nodes = workflow.nodes.map((node) =>
		node.type === 'n8n-nodes-base.manualTrigger'
			? { ...node, type: inputType, parameters: { items: '[{}]' } }
			: { ...node, credentials: undefined },
	);
	return { nodes: nodes as INode[], connections: workflow.connections };
}

function table(rows: string[][]): string {
	const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
	const line = (r: string[]) => r.map((cell, c) => cell.padEnd(widths[c])).join('  ');
	return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

function cut(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

async function main(): Promise<void> {
	const n8nFolder = throwawayN8nFolder();
	// Imported only now, so n8n-core sees the folder above.
	const { runWorkflow, INPUT_TYPE } = await import('../test/harness');
	const server = await startServer();
	try {
		const account = 'demo-pro';
		const before = server.admin.balance(account).totalMicrocents;
		console.log(`Embedded Job Search service at ${server.url} (plan: Pro, balance ${formatUsd(before)})`);
		console.log(`Running ${EXAMPLE.replace(`${process.cwd()}/`, '')} inside n8n-core...\n`);

		const { nodes, connections } = loadExample(INPUT_TYPE);
		const result = await runWorkflow({
			nodes,
			connections,
			credentials: { apiKey: server.admin.demoKeys.pro, baseUrl: server.url },
		});
		if (result.error) throw new Error(`The workflow failed: ${result.error.message}`);

		const found = result.items['Search Jobs'] ?? [];
		const details = result.items['Get Job'] ?? [];
		const rows = details.map(({ json }) => [
			String(json.uid),
			cut(String(json.title), 48),
			// Simplify gives every key, null where the job has no value.
			String(json.budget ?? ''),
			String(json.duration ?? ''),
			String(json.applicationCost ?? ''),
		]);
		console.log(table([['UID', 'Title', 'Budget', 'Duration', 'Connects'], ...rows]));

		const used = (items: typeof found) => Number((items[0]?.json.usage as IDataObject | undefined)?.consumedMicrocents ?? 0);
		const searchCost = used(found);
		const lookupCost = details.reduce((sum, i) => sum + Number((i.json.usage as IDataObject).consumedMicrocents), 0);
		const spent = before - server.admin.balance(account).totalMicrocents;
		console.log(
			`\nCredit spent: ${formatUsd(spent)} (search of ${found.length} rows ${formatUsd(searchCost)} + ${details.length} job lookups ${formatUsd(lookupCost)})`,
		);
	} finally {
		await server.close();
		rmSync(n8nFolder, { recursive: true, force: true });
	}
}

main().catch((error: Error) => {
	console.error(error.message);
	process.exit(1);
});
