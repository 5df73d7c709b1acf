import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { FILTERS, categoryValues, toNodeProperties, toParameterName, toRequestBody } from '../../nodes/JobSearch/filters';

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
		// The lint leaves options with numeric values in their given order (Search Period).
		for (const f of allFields.filter((x) => x.options && x.name !== 'searchPeriod')) {
			const names = (f.options as INodePropertyOptions[]).map((o) => o.name);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		}
	});

	it('lists Search Period shortest first and starts it at the last 24 hours', () => {
		const period = field('searchPeriod');
		const options = period.options as INodePropertyOptions[];
		expect(options.map((o) => o.name)).toEqual([
			'Last Hour',
			'Last 6 Hours',
			'Last 24 Hours',
			'Last 7 Days',
			'Last 14 Days',
			'Last 30 Days',
		]);
		expect(options.map((o) => o.value)).toEqual(['1', '6', '24', '168', '336', '720']);
		expect(period.default).toBe('24');
	});

	it('starts every number and amount filter empty, showing its placeholder, so a filter just added sends nothing', () => {
		// What the editor's number input (Element Plus's InputNumber, in n8n 2.8 and 2.41) does with
		// the value it is given as it mounts: anything neither a number nor null becomes Number(value).
		const asTheEditorMountsIt = (value: unknown) => (typeof value !== 'number' && value != null ? Number(value) : value);
		const numeric = allFields.filter((f) => f.type === 'number' && f.name !== 'limit');
		expect(numeric.map((f) => f.name)).toEqual(
			expect.arrayContaining(['budgetHourlyRateMin', 'budgetHourlyRateMax', 'budgetFixedPriceMin', 'budgetMinClientHireRate', 'clientMinFeedbackScore']),
		);
		for (const f of numeric) {
			expect({ field: f.name, shown: asTheEditorMountsIt(f.default), placeholder: f.placeholder }).toEqual({ field: f.name, shown: null, placeholder: expect.stringMatching(/^e\.g\. /) });
		}
		expect(toRequestBody({ budgetFilters: Object.fromEntries(numeric.map((f) => [f.name, f.default])) })).toEqual({});
	});

	it("groups the client's rate paid and hire rate with the other client filters, not the job's budget", () => {
		const client = collections.find((c) => c.name === 'clientFilters')!;
		const budget = collections.find((c) => c.name === 'budgetFilters')!;
		const names = (c: INodeProperties) => fieldsOf(c).map((f) => f.name);
		for (const name of ['budgetAvgHourlyRateMin', 'budgetAvgHourlyRateMax', 'budgetNoAvgHourlyRatePaid', 'budgetNoHireRate', 'budgetMinClientHireRate']) {
			expect(names(client)).toContain(name);
			expect(names(budget)).not.toContain(name);
		}
	});

	it('gives every comma-separated list field and every amount a placeholder', () => {
		const lists = FILTERS.filter((f) => f.type === 'textList' || f.type === 'locationList' || f.type === 'money');
		for (const spec of lists) expect(field(spec.key).placeholder).toMatch(/^e\.g\. \S/);
		expect(field('client.timezones').placeholder).toBe('e.g. America/New_York, Europe/London');
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

	it('leaves out the keys a node controls itself', () => {
		const trigger = toNodeProperties({ omit: ['limit', 'searchPeriod', 'fromDate', 'toDate'] });
		const names = trigger.flatMap(fieldsOf).map((f) => f.name);
		expect(names).not.toContain('limit');
		expect(names).not.toContain('fromDate');
		expect(names).toContain('jobCategories');
	});

	it('describes boolean filters starting with "Whether", as n8n asks', () => {
		for (const f of allFields.filter((x) => x.type === 'boolean')) expect(f.description).toMatch(/^Whether /);
	});
});
