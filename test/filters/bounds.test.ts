import fc from 'fast-check';

import { FILTERS, INPUT_BOUNDS, boundsOf, preview, toJsonSchema, toolDefinitions, validate, type FilterSpec } from '../../nodes/JobSearch/filters';
import { inputProblem } from '../../server/validation';
import { propertyParameters } from '../support/property';

const bounded = FILTERS.filter((f) => boundsOf(f).maxItems !== undefined || boundsOf(f).maxLength !== undefined);
const lists = FILTERS.filter((f) => boundsOf(f).maxItems !== undefined);

/** A valid entry of a list filter, or a valid text of a text filter, of `length` characters where texts are free. */
function entry(spec: FilterSpec, i: number, length = 3): unknown {
	switch (spec.type) {
		case 'choiceList':
			return spec.options[i % spec.options.length].value;
		case 'textList':
			return `${i}`.padEnd(length, 'k');
		case 'locationList':
			return { type: 'COUNTRY', value: 'US' };
		case 'money':
			return '1'.repeat(length);
		case 'dateTime':
			return `2026-11-01T00:00:00.${'1'.repeat(Math.max(1, length - 21))}Z`;
		default:
			throw new Error(`${spec.key} has no bound`);
	}
}

describe('the filter schema bounds every list and every text', () => {
	it('gives every list filter a maximum number of entries and every free text a maximum length', () => {
		for (const spec of FILTERS) {
			const { maxItems, maxLength } = boundsOf(spec);
			if (['choiceList', 'textList', 'locationList'].includes(spec.type)) expect({ key: spec.key, maxItems }).toEqual({ key: spec.key, maxItems: expect.any(Number) });
			if (['textList', 'money', 'dateTime'].includes(spec.type)) expect({ key: spec.key, maxLength }).toEqual({ key: spec.key, maxLength: expect.any(Number) });
		}
		expect(boundsOf(FILTERS.find((f) => f.key === 'budget.jobDurations')!).maxItems).toBe(5);
		expect(boundsOf(FILTERS.find((f) => f.key === 'includeKeywords.keywords')!)).toEqual({ maxItems: INPUT_BOUNDS.textListItems, maxLength: INPUT_BOUNDS.textLength });
	});

	it('carries the bounds into the JSON Schema the server validates with and MCP tools/list serves', () => {
		const properties = toJsonSchema().properties!;
		const listed = toolDefinitions().find((t) => t.name === 'search_jobs')!.inputSchema.properties!;
		for (const spec of bounded) {
			const { maxItems, maxLength } = boundsOf(spec);
			const schema = properties[spec.key];
			expect(listed[spec.key]).toEqual(schema);
			if (maxItems !== undefined) expect({ key: spec.key, maxItems: schema.maxItems }).toEqual({ key: spec.key, maxItems });
			const textLength = schema.type === 'array' ? schema.items?.maxLength : schema.maxLength;
			if (maxLength !== undefined) expect({ key: spec.key, maxLength: textLength }).toEqual({ key: spec.key, maxLength });
		}
		for (const tool of toolDefinitions().filter((t) => t.name !== 'search_jobs')) {
			expect(tool.inputSchema.properties!.jobUid.maxLength).toBe(INPUT_BOUNDS.jobUidLength);
		}
	});

	it('makes the node refuse exactly what the server refuses at each bound, for every bounded filter', () => {
		for (const spec of lists) {
			const { maxItems } = boundsOf(spec);
			const atBound = { [spec.key]: Array.from({ length: maxItems! }, (_, i) => entry(spec, i)) };
			const overBound = { [spec.key]: Array.from({ length: maxItems! + 1 }, (_, i) => entry(spec, i)) };
			expect({ key: spec.key, node: validate(atBound), server: inputProblem('search_jobs', atBound) }).toEqual({ key: spec.key, node: [], server: undefined });
			expect(validate(overBound)[0].message).toContain(`has ${maxItems! + 1} entries; at most ${maxItems} are allowed`);
			expect(inputProblem('search_jobs', overBound)).toContain(spec.key);
		}
	});

	it('agrees with the server on text lengths around the bound (fast-check)', () => {
		const texts = bounded.filter((f) => boundsOf(f).maxLength !== undefined);
		fc.assert(
			fc.property(fc.constantFrom(...texts), fc.integer({ min: -3, max: 3 }), (spec, delta) => {
				const length = boundsOf(spec).maxLength! + delta;
				const value = spec.type === 'textList' ? [entry(spec, 1, length)] : entry(spec, 1, length);
				const body = { [spec.key]: value };
				const nodeRefuses = validate(body).length > 0;
				expect(nodeRefuses).toBe(inputProblem('search_jobs', body) !== undefined);
				expect(nodeRefuses).toBe(delta > 0);
			}),
			propertyParameters(300, 9),
		);
	});

	it('refuses a leap second in the node as the server does', () => {
		const body = { toDate: '2026-12-31T23:59:60Z' };
		expect(validate(body)[0].message).toContain('To Date (toDate) must be a date such as 2026-11-26');
		expect(inputProblem('search_jobs', body)).toContain('toDate');
		expect(validate({ toDate: '2026-12-31T23:59:59.999Z' })).toEqual([]);
	});
});

describe('preview', () => {
	it('shows a huge or deeply nested value in a few dozen characters', () => {
		let deep: unknown = 1;
		for (let i = 0; i < 100_000; i++) deep = [deep];
		expect(preview(deep)).toBe('[[[[...]]]]');
		expect(preview('x'.repeat(5_000_000))).toHaveLength(60);
		expect(preview(Array(1_000_000).fill('NOPE')).length).toBeLessThanOrEqual(60);
		expect(preview({ a: 1, b: [1, 2] })).toBe('{"a":1,"b":[1,2]}');
	});
});
