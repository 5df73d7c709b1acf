import { compactJob, simplifyJob, simplifyJobDetails } from '../../nodes/JobSearch/output';

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
		expect(compact.client).toEqual({ country: 'US', totalSpentUsd: 0 });
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
	it('reports no hourly rate for a fixed-price job, and the same keys with null for a job missing values', () => {
		const fixed = simplifyJob(job({ jobType: 'FIXED', budget: { fixedBudget: 300 } }));
		expect(fixed.hourlyRate).toBeNull();
		expect(fixed.fixedBudget).toBe(300);
		expect(Object.keys(simplifyJob({ uid: '2' }))).toEqual(Object.keys(fixed));
		expect(Object.keys(simplifyJobDetails({ uid: '2' }))).toEqual(Object.keys(simplifyJobDetails(job({}))));
	});
});
