import { searchFiltersFromParameters } from '../../nodes/JobSearch/filters';

const parameters = (values: Record<string, unknown>) => (name: string) => values[name];

describe('searchFiltersFromParameters', () => {
	it('builds the body from the collections, then the node-owned keys, then Additional Filters', () => {
		const { body, issues } = searchFiltersFromParameters(
			parameters({ basicFilters: { searchPeriod: '24h' }, options: { additionalFilters: '{"searchPeriod": "7d", "vendor.includeFeatured": false}' } }),
			{ limit: 5 },
		);
		expect(issues).toEqual([]);
		expect(body).toEqual({ searchPeriod: '7d', limit: 5, 'vendor.includeFeatured': false });
	});

	it('names Additional Filters and says how to write them when the JSON is broken', () => {
		const { issues } = searchFiltersFromParameters(parameters({ options: { additionalFilters: '{"limit": 5' } }));
		expect(issues).toHaveLength(1);
		expect(issues[0].message).toMatch(/^Additional Filters \(JSON\) is not valid JSON: .*Write one JSON object of flat wire keys/);
	});

	it('refuses Additional Filters that are not an object', () => {
		const { issues } = searchFiltersFromParameters(parameters({ options: { additionalFilters: '[1, 2]' } }));
		expect(issues[0].message).toMatch(/must be a JSON object/);
	});

	it('reports filter values the schema refuses, wherever they came from', () => {
		const { issues } = searchFiltersFromParameters(parameters({ options: { additionalFilters: { 'client.minFeedbackScore': 9 } } }));
		expect(issues.map((i) => i.key)).toEqual(['client.minFeedbackScore']);
	});
});
