import {
	CATEGORY_GROUPS,
	FILTERS,
	FILTER_BY_KEY,
	FILTER_GROUPS,
	categoryValues,
	toParameterName,
} from '../../nodes/JobSearch/filters';

describe('the filter schema', () => {
	it('holds exactly the 53 wire keys of the public deployment', () => {
		expect(FILTERS).toHaveLength(53);
		expect(new Set(FILTERS.map((f) => f.key)).size).toBe(53);
		expect(FILTER_BY_KEY.get('budget.hourlyRate.min')?.type).toBe('money');
	});

	it('types money bounds as strings on the wire and connects bounds as integers', () => {
		for (const key of ['budget.hourlyRate', 'budget.fixedPrice', 'budget.avgHourlyRate', 'client.totalSpent']) {
			expect(FILTER_BY_KEY.get(`${key}.min`)?.type).toBe('money');
			expect(FILTER_BY_KEY.get(`${key}.max`)?.type).toBe('money');
		}
		expect(FILTER_BY_KEY.get('budget.connectsPrice.min')?.type).toBe('integer');
		expect(FILTER_BY_KEY.get('budget.connectsPrice.max')?.type).toBe('integer');
	});

	it('puts every filter in one of the five groups with a title and help text', () => {
		for (const f of FILTERS) {
			expect(FILTER_GROUPS).toContain(f.group);
			expect(f.title).toMatch(/^[A-Z0-9]/);
			expect(f.help.length).toBeGreaterThan(20);
		}
	});

	it('keeps misspelled enum values on the wire and spells them right for people', () => {
		const sizes = FILTER_BY_KEY.get('client.companySizeRange');
		if (sizes?.type !== 'choiceList') throw new Error('companySizeRange must be a choice list');
		const solo = sizes.options.find((o) => o.value === 'SOLO_ENTERPRENEUR');
		const hundred = sizes.options.find((o) => o.value === 'UP_TO_100_EMPOLOYEES');
		expect(solo?.name).toBe('Solo Entrepreneur');
		expect(hundred?.name).toMatch(/Employees/);
	});

	it('offers the 12 category groups with their subcategories and an "All" value each', () => {
		expect(CATEGORY_GROUPS).toHaveLength(12);
		const values = categoryValues();
		expect(values).toContain('All - Web, Mobile & Software Dev');
		expect(values).toContain('Data Extraction/ETL');
		expect(new Set(values).size).toBe(values.length);
		expect(values).toHaveLength(12 + CATEGORY_GROUPS.reduce((n, g) => n + g.subcategories.length, 0));
	});

	it('gives every wire key a distinct n8n parameter name without dots', () => {
		const names = FILTERS.map((f) => toParameterName(f.key));
		expect(new Set(names).size).toBe(names.length);
		for (const name of names) expect(name).toMatch(/^[a-z][A-Za-z0-9]*$/);
		expect(toParameterName('budget.hourlyRate.min')).toBe('budgetHourlyRateMin');
	});
});
