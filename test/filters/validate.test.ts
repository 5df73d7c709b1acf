import { COUNTRY_CODES, FILTERS, FILTER_RANGES, validate, wireDateToUtcMs } from '../../nodes/JobSearch/filters';
import { inputProblem } from '../../server/validation';
import { objectAsTextIssues } from '../../nodes/JobSearch/filters/validate';
import * as countries from '../../nodes/JobSearch/filters/countries';

const messageFor = (body: Record<string, unknown>) => validate(body).map((i) => i.message).join('\n');

describe('validate', () => {
	it('accepts a body built from valid values', () => {
		expect(
			validate({
				limit: 10,
				searchPeriod: '24 hours',
				fromDate: '2026-11-01T00:00:00.000Z',
				jobCategories: ['Web Development'],
				'budget.hourlyRate.min': '25.50',
				'client.minFeedbackScore': 4.5,
				'client.includeLocations': [{ type: 'COUNTRY', value: 'US' }],
			}),
		).toEqual([]);
	});

	it('names the field and the range when a number is out of range', () => {
		expect(messageFor({ limit: 20000 })).toBe('Limit (limit) must be a whole number from 1 to 10000; got 20000');
		expect(messageFor({ 'client.minFeedbackScore': 7 })).toMatch(/Min Client Feedback Score .* from 0 to 5/);
		expect(messageFor({ 'budget.connectsPrice.min': 2.5 })).toMatch(/whole number/);
	});

	it('accepts every numeric filter at exactly its minimum and maximum and refuses the next value beyond, on the node and the server alike', () => {
		const numeric = FILTERS.flatMap((f) => (f.type === 'integer' || f.type === 'number' ? [f] : []));
		const step = (type: string) => (type === 'integer' ? 1 : 0.01);
		const withBounds = numeric.filter((f) => f.minimum !== undefined);
		expect(withBounds.length).toBeGreaterThan(3);
		const verdicts = (key: string, value: number) => ({ key, value, node: validate({ [key]: value }).length === 0, server: inputProblem('search_jobs', { [key]: value }) === undefined });
		for (const f of withBounds) {
			expect(verdicts(f.key, f.minimum!)).toEqual({ key: f.key, value: f.minimum, node: true, server: true });
			expect(verdicts(f.key, f.minimum! - step(f.type))).toEqual({ key: f.key, value: f.minimum! - step(f.type), node: false, server: false });
		}
		for (const f of numeric.filter((n) => n.maximum !== undefined)) {
			expect(verdicts(f.key, f.maximum!)).toEqual({ key: f.key, value: f.maximum, node: true, server: true });
			expect(verdicts(f.key, f.maximum! + step(f.type))).toEqual({ key: f.key, value: f.maximum! + step(f.type), node: false, server: false });
		}
		expect(messageFor({ limit: 0 })).toBe('Limit (limit) must be a whole number from 1 to 10000; got 0');
		expect(messageFor({ limit: 1 })).toBe('');
	});

	it('says how to write a money amount', () => {
		expect(messageFor({ 'budget.hourlyRate.min': '$25' })).toMatch(
			/Hourly Rate Min \(USD\) \(budget.hourlyRate.min\) must be a non-negative amount in US dollars, such as 25/,
		);
	});

	it('lists the allowed values of an enum with their readable names', () => {
		expect(messageFor({ searchPeriod: '2 weeks' })).toMatch(/Last 14 Days \(14d\)/);
		expect(messageFor({ 'client.companySizeRange': ['HUGE'] })).toMatch(/got "HUGE", which is not among its options; use: .*Solo Entrepreneur \(SOLO_ENTERPRENEUR\)/);
	});

	it('refuses a country name where a code is expected, and gives its code', () => {
		expect(messageFor({ 'vendor.includeLocations': [{ type: 'COUNTRY', value: 'Germany' }] })).toBe(
			'Freelancer Countries (vendor.includeLocations) got "Germany", which is not a two-letter ISO 3166 country code; write it as "DE"',
		);
	});

	it('refuses two capitals that are no ISO 3166-1 code, and names the code meant where there is one', () => {
		const code = (value: string) => messageFor({ 'client.includeLocations': [{ type: 'COUNTRY', value }] });
		expect(code('UK')).toBe('Client Countries (client.includeLocations) got "UK", which is not a two-letter ISO 3166 country code; write it as "GB"');
		expect(code('uk')).toMatch(/got "uk", .*; write it as "GB"$/);
		expect(code('EL')).toMatch(/write it as "GR"$/);
		expect(code('DD')).toMatch(/write it as "DE"$/);
		expect(code('QQ')).toBe('Client Countries (client.includeLocations) got "QQ", which is not a two-letter ISO 3166 country code; use codes such as "US, GB"');
		expect(code('GB')).toBe('');
		expect(code('AX')).toBe('');
	});

	it('accepts every ISO 3166-1 code, 249 of them, on the node and the server alike', () => {
		expect(COUNTRY_CODES).toHaveLength(249);
		const body = { 'vendor.includeLocations': COUNTRY_CODES.map((value) => ({ type: 'COUNTRY', value })) };
		expect({ node: validate(body), server: inputProblem('search_jobs', body) }).toEqual({ node: [], server: undefined });
	});

	it('names several country names once, as the user wrote them, with the whole list to write instead', () => {
		const message = messageFor({
			'client.includeLocations': [
				{ type: 'COUNTRY', value: 'US' },
				{ type: 'COUNTRY', value: 'germany' },
				{ type: 'COUNTRY', value: 'United Kingdom' },
			],
		});
		expect(message).toBe(
			'Client Countries (client.includeLocations) got "germany", "United Kingdom", which are not two-letter ISO 3166 country codes; write it as "US, DE, GB"',
		);
		expect(message).not.toMatch(/"type"|COUNTRY|GERMANY/);
	});

	it('suggests codes only for the names it knows', () => {
		expect(messageFor({ 'client.excludeLocations': [{ type: 'COUNTRY', value: 'Narnia' }, { type: 'COUNTRY', value: 'France' }] })).toBe(
			'Exclude Client Countries (client.excludeLocations) got "Narnia", "France", which are not two-letter ISO 3166 country codes; use codes such as "US, GB" ("FR" for France)',
		);
	});

	it('looks up only the few names it shows, however many entries are wrong', () => {
		const lookUp = jest.spyOn(countries, 'countryCodeFor');
		try {
			const entries = Array.from({ length: 240 }, (_, i) => ({ type: 'COUNTRY', value: `Nowhere ${i}` }));
			const message = messageFor({ 'client.includeLocations': [{ type: 'COUNTRY', value: 'Germany' }, ...entries] });
			expect(message).toMatch(/got "Germany", "Nowhere 0", .* and 236 more, which are not two-letter ISO 3166 country codes; use codes such as "US, GB" \("DE" for Germany\)$/);
			expect(lookUp.mock.calls.length).toBeLessThanOrEqual(5);
		} finally {
			lookUp.mockRestore();
		}
	});

	it('says to map a text, not the object, when an object reaches a list of texts or of countries', () => {
		expect(messageFor({ 'includeKeywords.keywords': [{ name: 'python' }] })).toBe(
			'Include Keywords (includeKeywords.keywords) got {"name":"python"}, which is not text; map a text inside it instead of the whole object, e.g. {{ $json.skill.name }} rather than {{ $json.skill }}',
		);
		expect(messageFor({ 'client.includeLocations': [{ code: 'US' }] })).toMatch(
			/^Client Countries \(client.includeLocations\) got \{"code":"US"\}, which is not a country code; .*map a text inside it/,
		);
		expect(messageFor({ jobCategories: [{ id: 1 }, { id: 2 }] })).toMatch(/^Job Categories \(jobCategories\) got \{"id":1\}, \{"id":2\}, which are not among its options; map a text/);
	});

	it('still explains a wire entry with a stray key in its own terms', () => {
		expect(messageFor({ 'client.includeLocations': [{ type: 'COUNTRY', value: 'US', region: 'x' }] })).toBe(
			'Client Countries (client.includeLocations) has an entry with the unknown key "region"; each entry is {"type": "COUNTRY", "value": "<code>"}',
		);
	});

	it('refuses impossible dates and what is no date, saying what it accepts', () => {
		expect(messageFor({ fromDate: '2026-02-30T00:00:00Z' })).toBe(
			"From Date (fromDate) must be a date such as 2026-11-26 (that day at 00:00 UTC) or a date and time such as 2026-11-26T08:00:00Z (without a zone: the workflow's time zone in n8n, UTC through the API); got \"2026-02-30T00:00:00Z\"",
		);
		expect(messageFor({ fromDate: '2026-02-30' })).toMatch(/^From Date \(fromDate\) must be a date such as/);
		expect(messageFor({ toDate: '26/11/2026' })).toMatch(/^To Date \(toDate\) must be a date such as/);
		expect(messageFor({ toDate: '2026-11-26Z' })).toMatch(/^To Date/);
	});

	it('accepts a date alone, and a date and time with or without a zone, as the server does', () => {
		for (const value of ['2026-11-26', '2026-11-26 08:00', '2026-11-26T08:00:00', '2026-11-26T08:00:00.5+01:00', '2026-11-26T08:00Z']) {
			expect([value, validate({ fromDate: value })]).toEqual([value, []]);
			expect([value, inputProblem('search_jobs', { fromDate: value })]).toEqual([value, undefined]);
		}
		expect(inputProblem('search_jobs', { fromDate: '2026-02-30' })).toMatch(/^From Date \(fromDate\) must be a date such as/);
	});

	it('reads a date alone as that day at 00:00 UTC, and a time without a zone as UTC, on the wire', () => {
		expect(new Date(wireDateToUtcMs('2026-11-26')).toISOString()).toBe('2026-11-26T00:00:00.000Z');
		expect(new Date(wireDateToUtcMs('2026-11-26 08:00')).toISOString()).toBe('2026-11-26T08:00:00.000Z');
		expect(new Date(wireDateToUtcMs('2026-11-26T08:00:07.25')).toISOString()).toBe('2026-11-26T08:00:07.250Z');
		expect(new Date(wireDateToUtcMs('2026-11-26T08:00:00+01:00')).toISOString()).toBe('2026-11-26T07:00:00.000Z');
		expect(wireDateToUtcMs('2026-02-29')).toBeNaN();
	});

	it('refuses text in which an expression turned an object into "[object Object]", naming the field by its label', () => {
		expect(objectAsTextIssues({ 'includeKeywords.keywords': ['python', '[object Object]'], limit: 5 }).map((i) => i.message)).toEqual([
			'Include Keywords (includeKeywords.keywords) got "[object Object]": "[object Object]" is what an object becomes as text; map a text inside it instead of the whole object, e.g. {{ $json.skill.name }} rather than {{ $json.skill }}',
		]);
		expect(objectAsTextIssues({ 'client.includeLocations': [{ type: 'COUNTRY', value: '[object Object]' }] })).toHaveLength(1);
		expect(objectAsTextIssues({ 'includeKeywords.keywords': ['python'], 'future.key': '[object Object]' })).toEqual([]);
	});

	it('pairs every minimum with its maximum, the five ranges of the schema', () => {
		expect(FILTER_RANGES.map(({ min, max }) => `${min.key} ${max.key}`)).toEqual([
			'budget.hourlyRate.min budget.hourlyRate.max',
			'budget.fixedPrice.min budget.fixedPrice.max',
			'budget.connectsPrice.min budget.connectsPrice.max',
			'budget.avgHourlyRate.min budget.avgHourlyRate.max',
			'client.totalSpent.min client.totalSpent.max',
		]);
	});

	it('judges a range only once both ends are valid, so a bad value is named on its own first', () => {
		expect(messageFor({ 'budget.fixedPrice.min': '$500', 'budget.fixedPrice.max': '100' })).toMatch(/^Fixed Price Min \(USD\) \(budget.fixedPrice.min\) must be a non-negative amount/);
		expect(messageFor({ 'budget.fixedPrice.min': '500.5', 'budget.fixedPrice.max': '500.50' })).toBe('');
		expect(messageFor({ 'budget.fixedPrice.min': '500.51', 'budget.fixedPrice.max': '500.5' })).toMatch(/is 500.51, more than Fixed Price Max \(USD\) \(budget.fixedPrice.max\), 500.5;/);
	});

	it('leaves unknown keys to the server', () => {
		expect(validate({ 'some.futureKey': 'x' })).toEqual([]);
	});
});
