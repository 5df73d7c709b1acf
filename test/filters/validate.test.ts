import { FILTERS, validate } from '../../nodes/JobSearch/filters';
import { inputProblem } from '../../server/validation';

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
		expect(messageFor({ 'client.companySizeRange': ['HUGE'] })).toMatch(/unknown value "HUGE".*Solo Entrepreneur \(SOLO_ENTERPRENEUR\)/);
	});

	it('refuses country names where codes are expected', () => {
		expect(messageFor({ 'vendor.includeLocations': [{ type: 'COUNTRY', value: 'Germany' }] })).toMatch(
			/Freelancer Countries .* "Germany", which is not a two-letter ISO 3166 country code/,
		);
	});

	it('refuses impossible dates and dates without a zone', () => {
		expect(messageFor({ fromDate: '2026-02-30T00:00:00Z' })).toMatch(/From Date \(fromDate\) must be an ISO 8601/);
		expect(messageFor({ toDate: '2026-11-01 10:00' })).toMatch(/To Date/);
	});

	it('leaves unknown keys to the server', () => {
		expect(validate({ 'some.futureKey': 'x' })).toEqual([]);
	});
});
