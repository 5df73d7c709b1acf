import { readFileSync, readdirSync } from 'fs';
import { join } from 'path';
import { traverseNodeParameters, type FromAIArgument, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { JOB_SEARCH_TRIGGER_TYPE, JOB_SEARCH_TYPE, PACKAGE_NAME, loadNodeTypes } from '../harness';
import { createPoller } from '../harness/poll';
import { useTestService } from '../support/service';
import { callAsTool } from '../node/toolHarness';

// The example workflows in examples/: each imports into n8n with every node known (checked by the
// e2e in a real n8n 2.8.4), and here: every expression parses, every field mapped from this
// package's nodes is one they output (per the output schemas), and their filters pass the checks.

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
}
interface Example {
	file: string;
	name: string;
	nodes: ExampleNode[];
	connections: Record<string, Record<string, Array<Array<{ node: string }>>>>;
}

const dir = join(__dirname, '..', '..', 'examples');
const examples: Example[] = readdirSync(dir)
	.filter((f) => f.endsWith('.json'))
	.map((file) => ({ file, ...(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Omit<Example, 'file'>) }));
const ours = (node: ExampleNode) => node.type.startsWith(`${PACKAGE_NAME}.`);
const TOOL_TYPE = `${JOB_SEARCH_TYPE}Tool`;

const searchSchema = JSON.parse(
	readFileSync(join(__dirname, '..', '..', 'nodes/JobSearch/__schema__/v1.0.0/job/search.json'), 'utf8'),
) as { properties: Record<string, unknown> };
const DIGEST_FIELDS = ['count', 'text', 'jobs', 'usage'];

/** Every expression string in a node's parameters, with its path. */
function expressions(value: unknown, path = ''): Array<{ path: string; text: string }> {
	if (typeof value === 'string') return value.startsWith('=') ? [{ path, text: value.slice(1) }] : [];
	if (Array.isArray(value)) return value.flatMap((v, i) => expressions(v, `${path}[${i}]`));
	if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => expressions(v, `${path}.${k}`));
	return [];
}
const codeOf = (text: string) => [...text.matchAll(/\{\{([\s\S]*?)\}\}/g)].map((m) => m[1]);

/** What a node maps from the node before it, by the names it reads from $json and $('…').item.json. */
function fieldsRead(node: ExampleNode, from: string): string[] {
	const read = new Set<string>();
	for (const { text } of expressions(node.parameters)) {
		for (const m of text.matchAll(/\$json\.(\w+)/g)) read.add(`$json:${m[1]}`);
		for (const m of text.matchAll(/\$\('([^']+)'\)\.item\.json\.(\w+)/g)) if (m[1] === from) read.add(`named:${m[2]}`);
	}
	return [...read];
}

function upstreamOf(example: Example, name: string): string[] {
	return Object.entries(example.connections)
		.filter(([, outputs]) => (outputs.main ?? []).some((targets) => targets.some((t) => t.node === name)))
		.map(([source]) => source);
}

function checkParametersExist(node: ExampleNode): string[] {
	const type = node.type === TOOL_TYPE ? JOB_SEARCH_TYPE : node.type;
	const properties = loadNodeTypes().nodes[type].description.properties;
	const unknown: string[] = [];
	for (const [name, value] of Object.entries(node.parameters)) {
		if (name === 'pollTimes' && type === JOB_SEARCH_TRIGGER_TYPE) continue; // n8n adds it to polling nodes
		const property = properties.find((p) => p.name === name);
		if (!property) unknown.push(name);
		else if (property.type === 'collection') {
			const options = properties.filter((p) => p.name === name).flatMap((p) => (p.options ?? []) as INodeProperties[]);
			for (const key of Object.keys(value as object)) if (!options.some((o) => o.name === key)) unknown.push(`${name}.${key}`);
		}
	}
	return unknown;
}

describe('the example workflows', () => {
	it('are the ones the README describes, each with a name and the package in it', () => {
		expect(examples.map((e) => e.file).sort()).toEqual([
			'ai-agent-job-search-tool.json',
			'ai-scored-alerts-telegram-approval.json',
			'daily-email-digest.json',
			'google-sheets-log.json',
			'job-alerts.json',
			'quiet-hours-alerts.json',
			'search-then-get-job.json',
			'several-searches-routed.json',
		]);
		const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
		for (const example of examples) {
			expect(example.nodes.some(ours)).toBe(true);
			expect(readme).toContain(`examples/${example.file}`);
		}
	});

	it.each(examples.map((e) => [e.file, e] as const))('%s: connects only nodes it has, and its nodes of this package set only their own parameters', (_file, example) => {
		const names = example.nodes.map((n) => n.name);
		expect(new Set(names).size).toBe(names.length);
		for (const [source, outputs] of Object.entries(example.connections)) {
			expect(names).toContain(source);
			for (const targets of Object.values(outputs)) for (const t of targets.flat()) expect(names).toContain(t.node);
		}
		for (const node of example.nodes.filter(ours)) expect({ node: node.name, unknown: checkParametersExist(node) }).toEqual({ node: node.name, unknown: [] });
	});

	it.each(examples.map((e) => [e.file, e] as const))('%s: every expression parses and names only nodes the workflow has', (_file, example) => {
		const names = example.nodes.map((n) => n.name);
		for (const node of example.nodes) {
			for (const { path, text } of expressions(node.parameters)) {
				const parts = codeOf(text);
				expect({ at: `${node.name}${path}`, parts: parts.length }).not.toEqual({ at: `${node.name}${path}`, parts: 0 });
				for (const code of parts) {
					expect(() => new Function('$json', '$', '$now', '$fromAI', `return (${code});`)).not.toThrow();
					for (const m of code.matchAll(/\$\('([^']+)'\)/g)) expect(names).toContain(m[1]);
				}
			}
		}
	});

	it.each(examples.map((e) => [e.file, e] as const))('%s: maps from this package only fields its nodes output', (_file, example) => {
		const trigger = example.nodes.find((n) => n.type === JOB_SEARCH_TRIGGER_TYPE);
		if (!trigger) return;
		const digest = (trigger.parameters.options as { output?: string } | undefined)?.output === 'perPoll';
		// With several searches, each job also says which searches found it.
		const named = trigger.parameters.watch === 'severalSearches' ? ['search', 'searches'] : [];
		const outputs = digest ? DIGEST_FIELDS : [...Object.keys(searchSchema.properties), ...named];
		for (const node of example.nodes) {
			const direct = upstreamOf(example, node.name).includes(trigger.name);
			for (const read of fieldsRead(node, trigger.name)) {
				const [how, field] = read.split(':');
				if (how === '$json' && !direct) continue;
				expect({ node: node.name, field, known: outputs.includes(field) }).toEqual({ node: node.name, field, known: true });
			}
		}
	});

	it('quiet hours: polls every 15 minutes from 8:00 to 18:45 on weekdays only, and the README says when night jobs arrive', () => {
		const example = examples.find((e) => e.file === 'quiet-hours-alerts.json')!;
		const trigger = example.nodes.find((n) => n.type === JOB_SEARCH_TRIGGER_TYPE)!;
		expect(trigger.parameters.pollTimes).toEqual({ item: [{ mode: 'custom', cronExpression: '0 */15 8-18 * * 1-5' }] });
		expect(readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8')).toMatch(/posted at night\s+arrive at the first morning poll/);
	});
});

describe('the examples against the reference server', () => {
	const service = useTestService({ jobs: 2000 });

	it.each(examples.filter((e) => e.nodes.some((n) => n.type === JOB_SEARCH_TRIGGER_TYPE)).map((e) => [e.file, e] as const))(
		'%s: the trigger fetches a test event as exported',
		async (_file, example) => {
			const { credentials } = await service.account('pro');
			const trigger = example.nodes.find((n) => n.type === JOB_SEARCH_TRIGGER_TYPE)!;
			const outcome = await createPoller({ credentials, parameters: trigger.parameters }).poll('manual');
			expect(outcome.error).toBeUndefined();
			expect(outcome.items.length).toBeGreaterThan(0);
		},
	);

	it('ai-agent-job-search-tool.json: the model finds React jobs over $50/h from verified clients, each with its link, then reads one', async () => {
		const { credentials } = await service.account('pro');
		const example = examples.find((e) => e.file === 'ai-agent-job-search-tool.json')!;
		const tool = (name: string) => example.nodes.find((n) => n.name === name)!.parameters;
		const found = await callAsTool(tool('Search Jobs'), { limit: 5, keywords: 'react', minHourlyRate: '50', verifiedClientsOnly: true }, credentials);
		expect(found.jobs.length).toBeGreaterThan(0);
		const uid = found.jobs[0].uid as string;
		const full = service.server.admin.visibleJobs().find((j) => j.uid === uid)!;
		expect(full.client.paymentMethodVerified).toBe(true);
		expect(found.jobs[0].url).toBe(full.externalLink);
		const read = await callAsTool(tool('Get Job'), { jobUid: uid }, credentials);
		expect(read.jobs[0]).toEqual(expect.objectContaining({ uid, description: full.description }));
	});

	it('ai-agent-job-search-tool.json: tells the model what each argument is, and gives all but the job uid a default', () => {
		const example = examples.find((e) => e.file === 'ai-agent-job-search-tool.json')!;
		const args: FromAIArgument[] = [];
		for (const node of example.nodes.filter((n) => n.type.endsWith('Tool'))) traverseNodeParameters(node.parameters, args);
		expect(args.map((a) => a.key).sort()).toEqual(['clientCountries', 'jobUid', 'keywords', 'limit', 'minHourlyRate', 'verifiedClientsOnly']);
		for (const arg of args) {
			expect({ key: arg.key, described: (arg.description ?? '').length > 20 }).toEqual({ key: arg.key, described: true });
			expect({ key: arg.key, hasDefault: arg.defaultValue !== undefined }).toEqual({ key: arg.key, hasDefault: arg.key !== 'jobUid' });
		}
	});

	it('ai-agent-job-search-tool.json: a model that leaves out every argument but one gets the defaults, not a refusal', async () => {
		const { id, credentials } = await service.account('pro');
		const example = examples.find((e) => e.file === 'ai-agent-job-search-tool.json')!;
		const found = await callAsTool(example.nodes.find((n) => n.name === 'Search Jobs')!.parameters, { clientCountries: 'US, GB' }, credentials);
		expect(found.result).toEqual(expect.objectContaining({ total: expect.any(Number), jobs: expect.any(Array) }));
		expect(found.jobs).toHaveLength(10);
		expect(service.server.admin.callLog(id).map((c) => c.status)).toEqual([200]);
	});
});
