import { spawnSync } from 'child_process';
import { existsSync, statSync } from 'fs';
import { createRequire } from 'module';
import { join } from 'path';
import type { IVersionedNodeType } from 'n8n-workflow';

/**
 * n8n's own nodes (n8n-nodes-base 2.8.1, the version n8n 2.8.4 ships), installed in their own
 * folder from its committed lockfile on the first `npm run bench`: they are big (about 500 MB) and
 * only the bench needs them.
 */
const folder = join(__dirname, 'n8n-nodes-base');
const dist = join(folder, 'node_modules', 'n8n-nodes-base', 'dist');

/** Type names as n8n registers them: n8n-core gives the HTTP Request node type full credential access by this name. */
export const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
export const LOOP_OVER_ITEMS_TYPE = 'n8n-nodes-base.splitInBatches';

function ensureInstalled(): void {
	const marker = join(folder, 'node_modules', '.package-lock.json');
	if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(join(folder, 'package-lock.json')).mtimeMs) return;
	console.log('(installing n8n-nodes-base 2.8.1 into bench/n8n-nodes-base once, about 2 minutes)');
	const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: folder, stdio: 'inherit' });
	if (result.status !== 0) throw new Error(`npm ci in ${folder} failed (exit ${result.status ?? result.signal})`);
}

/** The HTTP Request node (all versions; workflows pick V3 by typeVersion 4.x) and Loop Over Items. */
export function loadN8nNodes(): { httpRequest: IVersionedNodeType; loopOverItems: IVersionedNodeType } {
	ensureInstalled();
	const load = createRequire(join(dist, 'index.js'));
	const { HttpRequest } = load(join(dist, 'nodes', 'HttpRequest', 'HttpRequest.node.js')) as Record<string, new () => IVersionedNodeType>;
	const { SplitInBatches } = load(join(dist, 'nodes', 'SplitInBatches', 'SplitInBatches.node.js')) as Record<
		string,
		new () => IVersionedNodeType
	>;
	return { httpRequest: new HttpRequest(), loopOverItems: new SplitInBatches() };
}
