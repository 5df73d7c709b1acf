import { inputProblem } from '../../server/validation';
import type { ToolName } from '../../nodes/JobSearch/filters';
import { startTestServer, type TestServer } from './helpers';

// What an MCP client's model reads in tools/list must be what the service's validation accepts:
// every example a tool's schema or description shows is sent as it is written, and must pass.

interface ListedProperty {
	type?: string;
	description?: string;
	examples?: unknown[];
}

interface ListedTool {
	name: ToolName;
	description: string;
	inputSchema: { required?: string[]; properties: Record<string, ListedProperty> };
}

let t: TestServer;
let key: string;
let tools: ListedTool[];

beforeAll(async () => {
	t = await startTestServer({ accounts: [{ id: 'pro', plan: 'pro' }] });
	key = await t.server.admin.issueKey('pro');
	const res = await t.http.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, {
		headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
	});
	tools = res.data.result.tools as ListedTool[];
});

afterAll(async () => await t.server.close());

/** The examples of one property: its `examples`, and the JSON after "Example:" in its description. */
function examplesOf(property: ListedProperty): unknown[] {
	const written = /Example: (.+)\.$/.exec(property.description ?? '');
	return [...(property.examples ?? []), ...(written ? [JSON.parse(written[1]) as unknown] : [])];
}

/** One tool input holding `value` under `key`, with whatever else the tool requires. */
function inputWith(tool: ListedTool, key: string, value: unknown): Record<string, unknown> {
	const required = Object.fromEntries((tool.inputSchema.required ?? []).map((name) => [name, examplesOf(tool.inputSchema.properties[name])[0]]));
	return { ...required, [key]: value };
}

describe('tools/list, as an MCP client reads it', () => {
	it('shows an example for every list, amount, date and number of search_jobs, each written in JSON', () => {
		const search = tools.find((tool) => tool.name === 'search_jobs')!;
		for (const [key, property] of Object.entries(search.inputSchema.properties)) {
			if (property.type === 'boolean') continue;
			expect({ key, examples: examplesOf(property).length }).toEqual({ key, examples: 2 });
		}
	});

	it('has every example in a tool schema or description accepted by the service as written', () => {
		let checked = 0;
		for (const tool of tools) {
			for (const [key, property] of Object.entries(tool.inputSchema.properties)) {
				for (const example of examplesOf(property)) {
					expect({ tool: tool.name, key, example, problem: inputProblem(tool.name, inputWith(tool, key, example)) }).toEqual({
						tool: tool.name,
						key,
						example,
						problem: undefined,
					});
					checked++;
				}
			}
		}
		expect(checked).toBeGreaterThan(80);
	});

	it('shows the country entry of the search_jobs description in the shape every country list accepts', () => {
		const search = tools.find((tool) => tool.name === 'search_jobs')!;
		const entries = [...search.description.matchAll(/\{"type": "COUNTRY", "value": "[A-Z]{2}"\}/g)].map((m) => JSON.parse(m[0]) as unknown);
		expect(entries).toHaveLength(1);
		const countryLists = Object.keys(search.inputSchema.properties).filter((k) => /Locations$/.test(k));
		expect(countryLists).toHaveLength(4);
		for (const list of countryLists) expect(inputProblem('search_jobs', { [list]: entries })).toBeUndefined();
	});

	it('never describes a list as comma-separated text, which the service refuses', () => {
		for (const tool of tools) {
			const texts = [tool.description, ...Object.values(tool.inputSchema.properties).map((p) => p.description ?? '')];
			for (const text of texts) expect(text).not.toMatch(/comma-separated|separate several with commas/i);
		}
	});
});

describe('a list refused by the service', () => {
	it('shows the JSON to write, not the text it got, and that example passes', async () => {
		const res = await t.call('search_jobs', { 'client.includeLocations': 'US, GB' }, key);
		expect(res.status).toBe(400);
		expect(res.data.error).toContain('must be a list of country entries (a JSON array), e.g. [{"type": "COUNTRY", "value": "US"}]; got "US, GB"');
		const shown = JSON.parse(/e\.g\. (\[.*?\]);/.exec(res.data.error as string)![1]) as unknown;
		expect(inputProblem('search_jobs', { 'client.includeLocations': shown })).toBeUndefined();

		const keywords = await t.call('search_jobs', { 'includeKeywords.keywords': 'react, node.js' }, key);
		expect(keywords.data.error).toContain('must be a list of texts (a JSON array), e.g. ["react", "node.js"]');
		expect(inputProblem('search_jobs', { 'includeKeywords.keywords': ['react', 'node.js'] })).toBeUndefined();
	});
});
