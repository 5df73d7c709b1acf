import { SIMPLIFIED_MAX_FIELDS, compactJob, simplifyJob, simplifyJobDetails } from '../../nodes/JobSearch/output';

const job = (extra: Record<string, unknown>) => ({
	uid: '1',
	title: 'T',
	createdAt: '2026-11-22T10:00:00.000Z',
	hourlyRate: 0,
	jobType: 'HOURLY',
	budget: { fixedBudget: null, hourlyRate: { min: null, max: null } },
	client: { countryCode: 'US', stats: { totalSpent: 0, hireRate: null } },
	...extra,
});

describe('the compact job a model reads', () => {
	it('states the budget in one short string for hourly ranges, single rates and fixed prices', () => {
		expect(compactJob(job({ hourlyRate: 50, budget: { hourlyRate: { min: 25, max: 50 } } })).budget).toBe('$25-$50/h');
		expect(compactJob(job({ hourlyRate: 40, budget: { hourlyRate: { min: null, max: 40 } } })).budget).toBe('$40/h');
		expect(compactJob(job({ jobType: 'FIXED', budget: { fixedBudget: 500, hourlyRate: {} } })).budget).toBe('$500 fixed');
		expect(compactJob(job({ jobType: 'FIXED', budget: { fixedBudget: 12.5 } })).budget).toBe('$12.50 fixed');
	});

	it('leaves out keys without a value instead of sending nulls', () => {
		const compact = compactJob(job({}));
		expect(compact).not.toHaveProperty('budget');
		expect(compact.client).toEqual({ country: 'US', spentUsd: 0 });
	});

	it('cuts a long description at the given length, ending it in an ellipsis, and folds whitespace', () => {
		const long = `${'word '.repeat(100)}end`;
		const cut = compactJob(job({ description: long }), 50).description as string;
		expect(cut).toHaveLength(50);
		expect(cut.endsWith('…')).toBe(true);
		expect(compactJob(job({ description: 'a\n\n b ' }), 50).description).toBe('a b');
	});
});

describe('Simplify', () => {
	it('says in words how long a Get Job runs and how much of the week, leaving out what the job does not say', () => {
		const details = (extra: Record<string, unknown>) => simplifyJobDetails(job(extra)).duration;
		expect(details({ duration: 'MORE_THAN_SIX_MONTHS', workload: 'LESS_THAN_30_HOURS' })).toBe('More than 6 months, less than 30 hours a week');
		expect(details({ duration: 'UP_TO_ONE_MONTH', workload: 'UNSPECIFIED' })).toBe('Up to 1 month');
		expect(details({ duration: 'UNSPECIFIED', workload: 'MORE_THAN_30_HOURS' })).toBe('More than 30 hours a week');
		expect(details({ duration: 'UNSPECIFIED', workload: 'UNSPECIFIED' })).toBeNull();
		expect(details({ duration: 'SOME_NEW_VALUE' })).toBe('SOME_NEW_VALUE');
	});

	it('gives Get Job the client facts of a search row in one line', () => {
		const client = (c: Record<string, unknown>) => simplifyJobDetails(job({ client: c })).client;
		expect(client({ countryCode: 'GB', paymentMethodVerified: true, stats: { totalSpent: 12_340.4 } })).toBe('GB, payment verified, $12,340 spent');
		expect(client({ paymentMethodVerified: false })).toBe('payment not verified');
		expect(client({})).toBeNull();
	});

	it('writes a fixed price as "$300 fixed", and gives the same keys with null for a job missing values', () => {
		const fixed = simplifyJob(job({ jobType: 'FIXED', hourlyRate: 0, budget: { fixedBudget: 300 } }));
		expect(fixed.budget).toBe('$300 fixed');
		expect(Object.keys(simplifyJob({ uid: '2' }))).toEqual(Object.keys(fixed));
		expect(simplifyJob({ uid: '2' }).budget).toBeNull();
		expect(Object.keys(simplifyJobDetails({ uid: '2' }))).toEqual(Object.keys(simplifyJobDetails(job({}))));
	});

	it('keeps at most ten flat fields, and nine for Get Job so that a client history asked for is the tenth', () => {
		const full = job({ questions: ['Why?'], duration: 'x', workload: 'y', applicationCost: 4 });
		expect(Object.keys(simplifyJob(full)).length).toBeLessThanOrEqual(SIMPLIFIED_MAX_FIELDS);
		expect(Object.keys(simplifyJobDetails(full))).toHaveLength(SIMPLIFIED_MAX_FIELDS - 1);
		for (const value of [...Object.values(simplifyJob(full)), ...Object.values(simplifyJobDetails(full))]) {
			if (value !== null && !Array.isArray(value)) expect(typeof value).not.toBe('object');
		}
	});
});
