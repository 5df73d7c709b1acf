import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

import { toNodeProperties } from '../../nodes/JobSearch/filters';
import { JobSearch } from '../../nodes/JobSearch/JobSearch.node';
import { JobSearchTrigger } from '../../nodes/JobSearch/JobSearchTrigger.node';

// Lint sees only literal objects, so the generated filter fields would escape the n8n rules
// that hand-written fields must pass. Print them as source and run the same rules over it.
function toSource(value: unknown, indent = ''): string {
	if (Array.isArray(value)) return `[\n${value.map((v) => `${indent}\t${toSource(v, `${indent}\t`)},\n`).join('')}${indent}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.entries(value).filter(([, v]) => v !== undefined);
		const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : `'${k}'`);
		return `{\n${entries.map(([k, v]) => `${indent}\t${key(k)}: ${toSource(v, `${indent}\t`)},\n`).join('')}${indent}}`;
	}
	return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(value);
}

// The plugin ships no types; only its rules and configs are used here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const n8nNodesBase = require('eslint-plugin-n8n-nodes-base') as {
	configs: { nodes: { rules: Linter.RulesRecord } };
};

// As n8n's verification scanner applies them: it turns max-value-present off for community nodes.
const parameterRules: Linter.RulesRecord = Object.fromEntries(
	Object.entries(n8nNodesBase.configs.nodes.rules).filter(
		([rule]) => rule.startsWith('n8n-nodes-base/node-param-') && rule !== 'n8n-nodes-base/node-param-type-options-max-value-present',
	),
);

async function lint(properties: unknown): Promise<string[]> {
	const source = `export const properties = ${toSource(properties)};\n`;
	const eslint = new ESLint({
		overrideConfigFile: true,
		overrideConfig: [
			{
				files: ['**/*.ts'],
				languageOptions: { parser: tseslint.parser },
				plugins: { 'n8n-nodes-base': n8nNodesBase },
				rules: parameterRules,
			},
		],
	});
	const [result] = await eslint.lintText(source, { filePath: 'nodes/Generated/Generated.node.ts' });
	return result.messages.map((m) => `${m.ruleId}: ${source.split('\n')[m.line - 1].trim()}`);
}

describe('generated node fields', () => {
	it('pass the n8n node-parameter lint rules that hand-written fields must pass', async () => {
		expect(Object.keys(parameterRules).length).toBeGreaterThan(50);
		// limit is left to each node's own Return All / Limit fields, which follow n8n's convention.
		expect(await lint(toNodeProperties({ omit: ['limit'] }))).toEqual([]);
	});

	it('make up node descriptions that pass those rules as a whole', async () => {
		expect(await lint(new JobSearch().description.properties)).toEqual([]);
		expect(await lint(new JobSearchTrigger().description.properties)).toEqual([]);
	});

	it('would be caught breaking a rule', async () => {
		const problems = await lint([{ displayName: 'Flag', name: 'flag', type: 'boolean', default: false, description: 'Turns it on.' }]);
		expect(problems.join('\n')).toMatch(/node-param-description-boolean-without-whether/);
	});
});
