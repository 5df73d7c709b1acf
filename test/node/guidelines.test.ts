// n8n's newer lint rules (in n8n's source, not yet in a released @n8n/eslint-plugin-community-nodes)
// and its UX guidelines, checked on the descriptions the nodes really build: most of our fields
// come from functions and the schema, which rules that read object literals in *.node.ts files
// cannot see.
import { readFileSync } from 'fs';
import { join } from 'path';
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { JobSearchApi } from '../../credentials/JobSearchApi.credentials';
import { JOB_SEARCH_TRIGGER_TYPE, JOB_SEARCH_TYPE, createWorkflow, loadNodeTypes } from '../harness';

const types = loadNodeTypes().nodes;
const descriptions: Array<[string, INodeTypeDescription]> = [
	['Job Search', types[JOB_SEARCH_TYPE].description],
	['Job Search Trigger', types[JOB_SEARCH_TRIGGER_TYPE].description],
];

/** Every field at any depth (collection entries, fixedCollection values), with where it sits. */
function fieldsOf(properties: INodeProperties[], path = ''): Array<{ where: string; field: INodeProperties }> {
	return properties.flatMap((field) => {
		const where = `${path}${field.name}`;
		const nested = (field.options ?? []).flatMap((option) => {
			if ('values' in option) return fieldsOf((option as INodePropertyCollection).values, `${where}.${option.name}.`);
			if ('type' in option && 'displayName' in option) return fieldsOf([option as INodeProperties], `${where}.`);
			return [];
		});
		return [{ where, field }, ...nested];
	});
}

const allFields = descriptions.flatMap(([node, d]) => fieldsOf(d.properties).map((f) => ({ ...f, where: `${node}: ${f.where}` })));
const credentialFields = fieldsOf(new JobSearchApi().properties).map((f) => ({ ...f, where: `credential: ${f.where}` }));
const choicesOf = (field: INodeProperties) =>
	(field.options ?? []).filter((o): o is INodePropertyOptions => 'value' in o && !('type' in o));

/** Every text a user reads in the editor, with where it is. */
function userTexts(): Array<[string, string]> {
	const texts: Array<[string, string | undefined]> = [];
	for (const [node, d] of descriptions) texts.push([`${node}: description`, d.description]);
	for (const { where, field } of [...allFields, ...credentialFields]) {
		texts.push([`${where}: displayName`, field.displayName], [`${where}: description`, field.description], [`${where}: hint`, field.hint]);
		texts.push([`${where}: placeholder`, field.placeholder]);
		for (const choice of choicesOf(field)) {
			texts.push([`${where}=${String(choice.value)}: name`, choice.name], [`${where}=${String(choice.value)}: description`, choice.description]);
			texts.push([`${where}=${String(choice.value)}: action`, choice.action]);
		}
	}
	return texts.filter((t): t is [string, string] => typeof t[1] === 'string' && t[1] !== '');
}

describe("n8n's newer rules for community nodes", () => {
	it('gives every parameter a default (require-param-default)', () => {
		const missing = [...allFields, ...credentialFields].filter(({ field }) => field.default === undefined).map((f) => f.where);
		expect(missing).toEqual([]);
	});

	it('keeps every hint within 120 characters (hint-max-length)', () => {
		const long = allFields.filter(({ field }) => (field.hint ?? '').length > 120).map((f) => f.where);
		expect(long).toEqual([]);
	});

	it('has no subcategories in the codex files (no-codex-subcategories)', () => {
		for (const file of ['JobSearch/JobSearch.node.json', 'JobSearch/JobSearchTrigger.node.json']) {
			const codex = JSON.parse(readFileSync(join(__dirname, '../../nodes', file), 'utf8')) as Record<string, unknown>;
			expect(codex).not.toHaveProperty('subcategories');
		}
	});

	it('has no optional JSON field at the top level (open-ended-node-fields)', () => {
		for (const [, d] of descriptions) {
			expect(d.properties.filter((p) => p.type === 'json' && p.required !== true).map((p) => p.name)).toEqual([]);
		}
	});

	// n8n's own list operations keep Return All, Limit and Simplify at the top level, and fields an
	// AI tool alone sees are the tool's configuration: those stay where n8n's nodes have them.
	const topLevelByConvention = new Set(['returnAll', 'limit', 'simplify', 'toolDescription', 'toolMaxJobs', 'toolOutput']);
	const notInput = new Set(['collection', 'fixedCollection', 'notice', 'callout', 'hidden']);

	it('keeps every other optional field in a collection (non-required-fields-in-collection)', () => {
		for (const [, d] of descriptions) {
			const open = d.properties.filter(
				(p) => !['resource', 'operation'].includes(p.name) && !notInput.has(p.type) && p.required !== true && !topLevelByConvention.has(p.name),
			);
			expect(open.map((p) => p.name)).toEqual([]);
		}
	});
});

describe("n8n's UX guidelines for texts", () => {
	const texts = userTexts();

	it('avoids the words error, problem, failure and mistake', () => {
		// "On Error" is the name of n8n's own node setting, which a text may point to.
		const offending = texts.filter(([, text]) => /\b(error|errors|problem|problems|failure|failures|mistake|mistakes)\b/i.test(text.replace(/"On Error"/g, '')));
		expect(offending).toEqual([]);
	});

	it('starts every placeholder of an input with "e.g."', () => {
		const wrong = [...allFields, ...credentialFields]
			.filter(({ field }) => field.placeholder !== undefined && !['collection', 'fixedCollection'].includes(field.type))
			.filter(({ field }) => !String(field.placeholder).startsWith('e.g. '))
			.map((f) => `${f.where}: ${String(f.field.placeholder)}`);
		expect(wrong).toEqual([]);
	});

	it('starts every boolean description with "Whether"', () => {
		const wrong = [...allFields, ...credentialFields]
			.filter(({ field }) => field.type === 'boolean' && field.description !== undefined && !field.description.startsWith('Whether'))
			.map((f) => f.where);
		expect(wrong).toEqual([]);
	});

	const small = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'from', 'in', 'of', 'on', 'or', 'per', 'the', 'to', 'with']);
	const titleCase = (text: string) =>
		text
			.split(/\s+/)
			.every((word, i) => i === 0 ? /^[^a-z]/.test(word) : small.has(word) || /^[^a-z]/.test(word));

	it('writes names and labels in Title Case', () => {
		const labels = [...allFields, ...credentialFields].filter(({ field }) => field.type !== 'notice').map(({ where, field }) => [where, field.displayName]);
		const choices = allFields.flatMap(({ where, field }) => choicesOf(field).map((c) => [`${where}=${String(c.value)}`, c.name]));
		expect([...labels, ...choices].filter(([, text]) => !titleCase(text))).toEqual([]);
	});

	it('writes actions in sentence case, as the nodes panel lists them', () => {
		const actions = allFields.flatMap(({ field }) => choicesOf(field).flatMap((c) => (c.action ? [c.action] : [])));
		expect(actions.length).toBeGreaterThan(0);
		for (const action of actions) expect(action).toMatch(/^[A-Z][a-z]*( [a-z]+)*$/);
	});

	it('shows the action on the canvas, as n8n evaluates the subtitle, not "search: job"', () => {
		const subtitle = types[JOB_SEARCH_TYPE].description.subtitle ?? '';
		const operations = allFields.filter(({ field }) => field.name === 'operation');
		for (const { field } of operations) {
			for (const { value, action } of choicesOf(field)) {
				const parameters = { resource: field.displayOptions?.show?.resource?.[0] as string, operation: value as string };
				const workflow = createWorkflow({ nodes: [{ name: 'Job Search', type: JOB_SEARCH_TYPE, parameters }] });
				const shown = workflow.expression.getSimpleParameterValue(workflow.getNode('Job Search')!, subtitle, 'internal', {});
				expect(shown).toBe(action);
			}
		}
	});
});
