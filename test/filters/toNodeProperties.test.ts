import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { FILTERS, categoryValues, toNodeProperties, toParameterName } from '../../nodes/JobSearch/filters';

const collections = toNodeProperties();
const fieldsOf = (c: INodeProperties) => c.options as INodeProperties[];
const allFields = collections.flatMap(fieldsOf);
const field = (wireKey: string) => allFields.find((f) => f.name === toParameterName(wireKey))!;

describe('toNodeProperties', () => {
	it('makes one "Add Filter" collection per group', () => {
		expect(collections.map((c) => c.displayName)).toEqual([
			'Basic Filters',
			'Keyword Filters',
			'Budget & Payment Filters',
			'Client Requirement Filters',
			'Freelancer Preference Filters',
		]);
		for (const c of collections) {
			expect(c.type).toBe('collection');
			expect(c.placeholder).toBe('Add Filter');
			expect(c.default).toEqual({});
		}
	});

	it('generates a field for every filter and none twice', () => {
		expect(allFields).toHaveLength(FILTERS.length);
	});

	it('sorts collection entries by display name and options by name, as the n8n lint rules demand', () => {
		for (const c of collections) {
			const names = fieldsOf(c).map((f) => f.displayName);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		}
		for (const f of allFields.filter((x) => x.options)) {
			const names = (f.options as INodePropertyOptions[]).map((o) => o.name);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		}
	});

	it('uses multiOptions for enum lists and categories', () => {
		expect(field('jobCategories').type).toBe('multiOptions');
		expect(field('client.companySizeRange').type).toBe('multiOptions');
		expect((field('jobCategories').options as INodePropertyOptions[]).length).toBe(categoryValues().length);
	});

	it('shows money as a number input with cents', () => {
		const money = field('budget.hourlyRate.min');
		expect(money.type).toBe('number');
		expect(money.typeOptions).toMatchObject({ minValue: 0, numberPrecision: 2 });
	});

	it('carries ranges into number inputs', () => {
		expect(field('client.minFeedbackScore').typeOptions).toMatchObject({ minValue: 0, maxValue: 5 });
		expect(field('limit').typeOptions).toMatchObject({ minValue: 1, maxValue: 10000, numberPrecision: 0 });
	});

	it('leaves out the keys a node controls itself and applies its display options', () => {
		const trigger = toNodeProperties({
			omit: ['limit', 'searchPeriod', 'fromDate', 'toDate'],
			displayOptions: { show: { operation: ['search'] } },
		});
		const names = trigger.flatMap(fieldsOf).map((f) => f.name);
		expect(names).not.toContain('limit');
		expect(names).not.toContain('fromDate');
		expect(names).toContain('jobCategories');
		for (const c of trigger) expect(c.displayOptions).toEqual({ show: { operation: ['search'] } });
	});

	it('describes boolean filters starting with "Whether", as n8n asks', () => {
		for (const f of allFields.filter((x) => x.type === 'boolean')) expect(f.description).toMatch(/^Whether /);
	});
});
