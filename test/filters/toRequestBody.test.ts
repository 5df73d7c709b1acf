import { toRequestBody, validate } from '../../nodes/JobSearch/filters';

describe('toRequestBody', () => {
	it('turns node values into the flat dotted wire body', () => {
		const body = toRequestBody({
			basicFilters: { searchPeriod: '24h', jobCategories: ['Web Development', 'All - Writing'] },
			budgetFilters: { budgetHourlyRateMin: 25, budgetConnectsPriceMax: 16, budgetJobDurations: ['UP_TO_ONE_MONTH'] },
			keywordFilters: { includeKeywordsKeywords: 'react, node.js , ', includeKeywordsMatchTitle: true },
			clientFilters: { clientIncludeLocations: 'us, GB', clientPaymentMethodVerified: true },
		});
		expect(body).toEqual({
			searchPeriod: '24h',
			jobCategories: ['Web Development', 'All - Writing'],
			'includeKeywords.keywords': ['react', 'node.js'],
			'includeKeywords.matchTitle': true,
			'budget.hourlyRate.min': '25',
			'budget.connectsPrice.max': 16,
			'budget.jobDurations': ['UP_TO_ONE_MONTH'],
			'client.paymentMethodVerified': true,
			'client.includeLocations': [
				{ type: 'COUNTRY', value: 'US' },
				{ type: 'COUNTRY', value: 'GB' },
			],
		});
	});

	it('sends money as strings and connects as integers', () => {
		const body = toRequestBody({ budgetFilters: { budgetFixedPriceMax: 1500.5, budgetConnectsPriceMin: '4' } });
		expect(body['budget.fixedPrice.max']).toBe('1500.5');
		expect(body['budget.connectsPrice.min']).toBe(4);
	});

	it('leaves out empty values but keeps an explicit false', () => {
		const body = toRequestBody({
			basicFilters: { jobCategories: [], fromDate: '' },
			keywordFilters: { excludeKeywordsKeywords: ' , ', excludeKeywordsMatchSkills: false },
		});
		expect(body).toEqual({ 'excludeKeywords.matchSkills': false });
	});

	it('writes dates as UTC ISO 8601 with milliseconds, reading zone-less picker values as UTC', () => {
		const body = toRequestBody({ basicFilters: { fromDate: '2026-11-01T08:30:00', toDate: '2026-11-02T00:00:00+02:00' } });
		expect(body.fromDate).toBe('2026-11-01T08:30:00.000Z');
		expect(body.toDate).toBe('2026-11-01T22:00:00.000Z');
	});

	it('merges Additional Filters last so they win', () => {
		const body = toRequestBody({ basicFilters: { searchPeriod: '24h' } }, { searchPeriod: '7d', 'future.key': 1 });
		expect(body).toEqual({ searchPeriod: '7d', 'future.key': 1 });
	});

	it('passes values it cannot convert through unchanged, for validate to name', () => {
		const body = toRequestBody({ basicFilters: { fromDate: 'next tuesday' } });
		expect(body.fromDate).toBe('next tuesday');
	});
});

describe('toRequestBody with the workflow time zone', () => {
	it('reads a picked date without a zone as wall-clock time in the workflow time zone', () => {
		const body = toRequestBody(
			{ basicFilters: { fromDate: '2026-11-01T09:00:00', toDate: '2026-07-01T09:00:00' } },
			{},
			{ timeZone: 'Europe/Berlin' },
		);
		expect(body.fromDate).toBe('2026-11-01T08:00:00.000Z'); // CET, UTC+1
		expect(body.toDate).toBe('2026-07-01T07:00:00.000Z'); // CEST, UTC+2
	});

	it('takes a date alone as that day at 00:00 UTC, whatever the workflow time zone', () => {
		const body = toRequestBody({ basicFilters: { fromDate: '2026-11-26', toDate: ' 2026-11-27 ' } }, {}, { timeZone: 'America/New_York' });
		expect([body.fromDate, body.toDate]).toEqual(['2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z']);
	});

	it('keeps dates that state their zone as they are', () => {
		const body = toRequestBody({ basicFilters: { fromDate: '2026-11-01T09:00:00Z' } }, {}, { timeZone: 'America/New_York' });
		expect(body.fromDate).toBe('2026-11-01T09:00:00.000Z');
	});

	it('falls back to UTC for a time zone it does not know', () => {
		const body = toRequestBody({ basicFilters: { fromDate: '2026-11-01T09:00:00' } }, {}, { timeZone: 'Mars/Olympus' });
		expect(body.fromDate).toBe('2026-11-01T09:00:00.000Z');
	});

	it('converts node-set and Additional Filters values of known keys too, so an expression\'s "5" counts', () => {
		expect(toRequestBody({}, { limit: '5', 'budget.hourlyRate.min': 30 })).toEqual({ limit: 5, 'budget.hourlyRate.min': '30' });
	});
});

describe('wall-clock dates around daylight saving changes', () => {
	const at = (value: string, timeZone: string) => toRequestBody({ basicFilters: { fromDate: value } }, {}, { timeZone }).fromDate;

	it('reads a time the clocks skip as the moment after the change', () => {
		expect(at('2026-03-08T02:30:00', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z'); // 03:30 EDT
		expect(at('2026-03-29T02:30:00', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z'); // 03:30 CEST
	});

	it('reads a time the clocks pass twice as its first occurrence', () => {
		expect(at('2026-11-01T01:30:00', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z'); // 01:30 EDT
		expect(at('2026-10-25T02:30:00', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z'); // 02:30 CEST
	});

	it('leaves impossible dates unconverted, so validation names the field', () => {
		const body = toRequestBody({ basicFilters: { fromDate: '2026-13-01T09:00:00', toDate: '2026-11-01T09:60:00' } }, {}, { timeZone: 'Europe/Berlin' });
		expect(body.fromDate).toBe('2026-13-01T09:00:00');
		expect(body.toDate).toBe('2026-11-01T09:60:00');
		expect(validate(body).map((i) => i.key)).toEqual(['fromDate', 'toDate']);
	});
	it('sends the Search Period the field stores in hours as the wire period, and a wire period as it is', () => {
		expect(toRequestBody({ basicFilters: { searchPeriod: '168' } }).searchPeriod).toBe('7d');
		expect(toRequestBody({ basicFilters: { searchPeriod: 24 } }).searchPeriod).toBe('24h');
		expect(toRequestBody({ basicFilters: { searchPeriod: '30d' } }).searchPeriod).toBe('30d');
	});

	it('leaves out number filters that were added but left empty', () => {
		const body = toRequestBody({
			budgetFilters: { budgetHourlyRateMin: '', budgetHourlyRateMax: null, budgetConnectsPriceMax: '' },
			clientFilters: { budgetMinClientHireRate: '', clientMinFeedbackScore: '' },
		});
		expect(body).toEqual({});
	});
});
