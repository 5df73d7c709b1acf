import Ajv from 'ajv';
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join, relative } from 'path';

import { SCHEMA_DIR, buildOutputSchemas, operations, outputsOf, schemaFileText, schemaVersions } from '../../scripts/outputSchemas/build';
import { loadNodeTypes, JOB_SEARCH_TYPE } from '../harness';
import { startServer } from '../../server';

const root = join(__dirname, '..', '..');

function committedFiles(dir = join(root, SCHEMA_DIR)): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? committedFiles(join(dir, entry.name)) : [relative(root, join(dir, entry.name))],
	);
}

const committed = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8')) as object;

describe('output schemas (what the editor shows the next node before a run)', () => {
	it('are what `npm run schemas` writes from the node\'s output today (run it after changing the output)', async () => {
		const fresh = await buildOutputSchemas();
		expect(committedFiles().sort()).toEqual([...fresh.keys()].sort());
		for (const [path, schema] of fresh) {
			expect({ path, text: readFileSync(join(root, path), 'utf8') }).toEqual({ path, text: schemaFileText(schema) });
		}
	});

	it("sit where n8n looks: v<x.y.z> of the node's version, then each resource and operation the node offers", () => {
		const { properties, version } = loadNodeTypes().nodes[JOB_SEARCH_TYPE].description;
		expect(schemaVersions()).toEqual([`v${version}.0.0`]);
		const offered = properties
			.filter((p) => p.name === 'operation')
			.flatMap((p) => (p.options as Array<{ value: string }>).map((o) => `${p.displayOptions!.show!.resource![0]}/${o.value}`));
		expect(operations().map((o) => `${o.resource}/${o.operation}`).sort()).toEqual(offered.sort());
		for (const path of offered) {
			const schema = committed(`${SCHEMA_DIR}/v1.0.0/${path}.json`) as { type: string; properties: object };
			expect(schema.type).toBe('object');
			expect(Object.keys(schema.properties).length).toBeGreaterThan(0);
		}
	});

	it('fit real outputs of every operation from the reference server, on jobs other than those they were learned from', async () => {
		const ajv = new Ajv({ allErrors: true, strict: false });
		const server = await startServer({ jobs: 200, seed: 424242 });
		try {
			const uids = server.admin.visibleJobs().map((job) => job.uid);
			for (const { resource, operation } of operations()) {
				const validate = ajv.compile(committed(`${SCHEMA_DIR}/v1.0.0/${resource}/${operation}.json`));
				const outputs = await outputsOf(server, resource, operation, operation === 'search' ? uids : uids.slice(0, 40));
				expect(outputs.length).toBeGreaterThan(0);
				const misfits = outputs.filter((json) => !validate(json)).map(() => ajv.errorsText(validate.errors));
				expect({ operation: `${resource}/${operation}`, misfits }).toEqual({ operation: `${resource}/${operation}`, misfits: [] });
			}
		} finally {
			await server.close();
		}
	});

	it('refuse an output that changed a field\'s type or dropped a field', () => {
		const validate = new Ajv({ strict: false }).compile(committed(`${SCHEMA_DIR}/v1.0.0/job/search.json`));
		const job = { uid: '1', title: 't', url: 'u', createdAt: 'c', skills: ['a'], clientPaymentVerified: true };
		const properties = (committed(`${SCHEMA_DIR}/v1.0.0/job/search.json`) as { properties: Record<string, { type: string }> }).properties;
		const full = Object.fromEntries(
			Object.entries(properties).map(([key, { type }]) => [key, key in job ? job[key as keyof typeof job] : type === 'array' ? [] : type === 'number' ? 1 : type === 'boolean' ? false : 'x']),
		);
		expect(validate(full)).toBe(true);
		expect(validate({ ...full, uid: 1955020056847176693 })).toBe(false);
		const { title: _title, ...withoutTitle } = full;
		expect(validate(withoutTitle)).toBe(false);
	});
});
