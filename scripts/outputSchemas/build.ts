import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { router } from '../../nodes/JobSearch/actions/router';
import { startServer, type RunningServer } from '../../server';
import { JOB_SEARCH_TYPE, loadNodeTypes } from '../../test/harness';
import { runJobSearch } from '../../test/node/helpers';
import { schemaOf, type JsonSchema } from './infer';

/**
 * The output schemas n8n serves to the editor before a node has run, learned from what the node
 * itself outputs with its default settings (Simplify on, one item per job) inside n8n-core,
 * against the reference server. The shaping code (nodes/JobSearch/output/) is the one source: a
 * change there changes these on the next `npm run schemas`, and a test fails until then.
 */

/** Where n8n looks: <node dir>/__schema__/v<x.y.z>/<resource>/<operation>.json. */
export const SCHEMA_DIR = 'nodes/JobSearch/__schema__';

/** Jobs read per operation: enough that every field shows a value and, where it can be, a null. */
const SAMPLE = { searched: 300, looked: 60 } as const;

/** n8n pads the node's typeVersion to three parts (1 → 1.0.0) when it asks for a schema. */
export function schemaVersions(): string[] {
	// Loaded as the harness does: under ts-node, "JobSearch.node" would resolve to the codex JSON.
	const { version } = loadNodeTypes().nodes[JOB_SEARCH_TYPE].description;
	return (Array.isArray(version) ? version : [version]).map((v) => `v${String(v).split('.').concat(['0', '0']).slice(0, 3).join('.')}`);
}

/** Every resource and operation the node routes, as n8n names them in the schema's path. */
export function operations(): Array<{ resource: string; operation: string }> {
	return Object.entries(router).flatMap(([resource, ops]) => Object.keys(ops).map((operation) => ({ resource, operation })));
}

/** The node's output items for one operation, default settings, over the given jobs. */
export async function outputsOf(
	server: RunningServer,
	resource: string,
	operation: string,
	jobUids: string[],
): Promise<IDataObject[]> {
	const { key } = await server.admin.createAccount({ id: `schema-${resource}-${operation}-${Date.now()}`, plan: 'enterprise' });
	const credentials = { apiKey: key, baseUrl: server.url };
	// No credit cap: the sample is as large as the schema needs, on the reference server.
	const options = { maxCreditUsd: 0 };
	const parameters: INodeParameters =
		operation === 'search'
			? { resource, operation, limit: jobUids.length, options }
			: { resource, operation, jobUid: { __rl: true, mode: 'id', value: '={{ $json.uid }}' }, options };
	const input = operation === 'search' ? [{}] : jobUids.map((uid) => ({ uid }));
	const run = await runJobSearch(parameters, { credentials, input });
	if (run.error) throw new Error(`${resource}/${operation}: ${run.error.message}`);
	return run.output.map((item) => item.json);
}

/** The schema files, by path under the repository, as they are to be written. */
export async function buildOutputSchemas(seed = 1): Promise<Map<string, JsonSchema>> {
	const server = await startServer({ jobs: SAMPLE.searched, seed });
	try {
		const uids = server.admin.visibleJobs().map((job) => job.uid);
		const files = new Map<string, JsonSchema>();
		for (const { resource, operation } of operations()) {
			const sample = operation === 'search' ? uids : uids.slice(0, SAMPLE.looked);
			const schema = { type: 'object', ...schemaOf(await outputsOf(server, resource, operation, sample), `${resource}.${operation}`) };
			for (const version of schemaVersions()) files.set(`${SCHEMA_DIR}/${version}/${resource}/${operation}.json`, schema);
		}
		return files;
	} finally {
		await server.close();
	}
}

/** The text of a schema file: stable, so a regenerated file differs only when the output does. */
export function schemaFileText(schema: JsonSchema): string {
	return `${JSON.stringify(schema, null, '\t')}\n`;
}
