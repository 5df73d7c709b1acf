import { FILTERS } from '../../nodes/JobSearch/filters';
import type { ScriptedJob } from '../../server';
import { startTestServer, T0, type TestServer } from './helpers';

/**
 * One case per search_jobs key. Each case posts a few jobs into its own time slot and checks
 * which of them come back without the filter (`base`) and with it, so every case proves the
 * filter changes the answer the way its help text says.
 */
type Body = Record<string, unknown>;
/** A scripted job, whether it is in the base answer, whether it is in the filtered answer. */
type Row = [ScriptedJob & { minute?: number; at?: number }, boolean, boolean];
interface Case {
	base?: Body;
	with: Body;
	rows: Row[];
	/** Replaces the slot's window, for filters that read the clock. */
	window?: Body;
}

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const hourly = (min: number | null, max: number | null): ScriptedJob => ({ jobType: 'HOURLY', budget: { fixedBudget: null, hourlyRate: { min, max } } });
const fixed = (amount: number | null): ScriptedJob => ({ jobType: 'FIXED', budget: { fixedBudget: amount, hourlyRate: { min: null, max: null } } });
const stats = (s: Record<string, number | null>): ScriptedJob => ({ client: { stats: s } });
const client = (c: Record<string, unknown>): ScriptedJob => ({ client: c });
const vendor = (v: Record<string, unknown>): ScriptedJob => ({ vendor: v });
const country = (value: string) => [{ type: 'COUNTRY', value }];
const WORD = 'quokka';
const inTitle: ScriptedJob = { title: `Need a ${WORD} whisperer`, description: 'Plain text.', skills: ['Excel'] };
const inDescription: ScriptedJob = { title: 'Plain title', description: `Experience with ${WORD.toUpperCase()} care.`, skills: ['Excel'] };
const inSkills: ScriptedJob = { title: 'Plain title', description: 'Plain text.', skills: ['Excel', `${WORD} handling`] };
const nowhere: ScriptedJob = { title: 'Plain title', description: 'Plain text.', skills: ['Excel'] };

const CASES: Record<string, Case> = {
	limit: { with: { limit: 2 }, rows: [[{ minute: 1 }, true, false], [{ minute: 2 }, true, true], [{ minute: 3 }, true, true]] },
	searchPeriod: {
		window: { fromDate: iso(T0 - 72 * HOUR) },
		with: { searchPeriod: '24h' },
		rows: [[{ at: T0 - 2 * HOUR }, true, true], [{ at: T0 - 30 * HOUR }, true, false]],
	},
	fromDate: { with: { fromDateMinute: 30 }, rows: [[{ minute: 10 }, true, false], [{ minute: 40 }, true, true]] },
	toDate: { with: { toDateMinute: 30 }, rows: [[{ minute: 10 }, true, true], [{ minute: 40 }, true, false]] },
	jobCategories: {
		with: { jobCategories: ['Web Development', 'All - Writing'] },
		rows: [[{ category: 'Web Development' }, true, true], [{ category: 'Content Writing' }, true, true], [{ category: 'Mobile Development' }, true, false]],
	},

	'includeKeywords.keywords': {
		with: { 'includeKeywords.keywords': ['Quokka', 'wombat'] },
		rows: [[inTitle, true, true], [inDescription, true, true], [inSkills, true, true], [nowhere, true, false]],
	},
	'includeKeywords.matchTitle': {
		base: { 'includeKeywords.keywords': [WORD] },
		with: { 'includeKeywords.matchTitle': true },
		rows: [[inTitle, true, true], [inDescription, true, false]],
	},
	'includeKeywords.matchDescription': {
		base: { 'includeKeywords.keywords': [WORD] },
		with: { 'includeKeywords.matchDescription': true },
		rows: [[inTitle, true, false], [inDescription, true, true]],
	},
	'includeKeywords.matchSkills': {
		base: { 'includeKeywords.keywords': [WORD] },
		with: { 'includeKeywords.matchSkills': true },
		rows: [[inSkills, true, true], [inTitle, true, false]],
	},
	'excludeKeywords.keywords': {
		with: { 'excludeKeywords.keywords': [WORD] },
		rows: [[inTitle, true, false], [inSkills, true, false], [nowhere, true, true]],
	},
	'excludeKeywords.matchTitle': {
		base: { 'excludeKeywords.keywords': [WORD] },
		with: { 'excludeKeywords.matchTitle': true },
		rows: [[inTitle, false, false], [inDescription, false, true]],
	},
	'excludeKeywords.matchDescription': {
		base: { 'excludeKeywords.keywords': [WORD] },
		with: { 'excludeKeywords.matchDescription': true },
		rows: [[inDescription, false, false], [inSkills, false, true]],
	},
	'excludeKeywords.matchSkills': {
		base: { 'excludeKeywords.keywords': [WORD] },
		with: { 'excludeKeywords.matchSkills': true },
		rows: [[inSkills, false, false], [inTitle, false, true]],
	},

	'budget.hourlyRate.min': {
		with: { 'budget.hourlyRate.min': '30' },
		rows: [[hourly(10, 40), true, true], [hourly(10, 25), true, false], [fixed(5000), true, false]],
	},
	'budget.hourlyRate.max': {
		with: { 'budget.hourlyRate.max': '30' },
		rows: [[hourly(20, 50), true, true], [hourly(35, 60), true, false], [fixed(10), true, false]],
	},
	'budget.fixedPrice.min': {
		with: { 'budget.fixedPrice.min': '1000' },
		rows: [[fixed(1500), true, true], [fixed(500), true, false], [hourly(50, 90), true, false]],
	},
	'budget.fixedPrice.max': {
		with: { 'budget.fixedPrice.max': '1000' },
		rows: [[fixed(500), true, true], [fixed(1500), true, false], [hourly(5, 10), true, false]],
	},
	'budget.connectsPrice.min': { with: { 'budget.connectsPrice.min': 10 }, rows: [[{ applicationCost: 12 }, true, true], [{ applicationCost: 4 }, true, false]] },
	'budget.connectsPrice.max': { with: { 'budget.connectsPrice.max': 10 }, rows: [[{ applicationCost: 4 }, true, true], [{ applicationCost: 12 }, true, false]] },
	'budget.jobDurations': {
		with: { 'budget.jobDurations': ['UP_TO_ONE_MONTH'] },
		rows: [[{ duration: 'UP_TO_ONE_MONTH' }, true, true], [{ duration: 'MORE_THAN_SIX_MONTHS' }, true, false]],
	},
	'budget.hourlyWorkloads': {
		with: { 'budget.hourlyWorkloads': ['MORE_THAN_30_HOURS'] },
		rows: [
			[{ ...hourly(20, 30), workload: 'MORE_THAN_30_HOURS' }, true, true],
			[{ ...hourly(20, 30), workload: 'LESS_THAN_30_HOURS' }, true, false],
			[fixed(500), true, false],
		],
	},
	'budget.avgHourlyRate.min': {
		with: { 'budget.avgHourlyRate.min': '20' },
		rows: [[stats({ avgHourlyRatePaid: 25 }), true, true], [stats({ avgHourlyRatePaid: 15 }), true, false], [stats({ avgHourlyRatePaid: null }), true, false]],
	},
	'budget.avgHourlyRate.max': {
		with: { 'budget.avgHourlyRate.max': '20' },
		rows: [[stats({ avgHourlyRatePaid: 15 }), true, true], [stats({ avgHourlyRatePaid: 25 }), true, false], [stats({ avgHourlyRatePaid: null }), true, false]],
	},
	'budget.allowUnspecifiedBudget': {
		base: { 'budget.hourlyRate.min': '30' },
		with: { 'budget.allowUnspecifiedBudget': true },
		rows: [[hourly(10, 40), true, true], [hourly(null, null), false, true], [fixed(null), false, true], [fixed(500), false, false]],
	},
	'budget.noAvgHourlyRatePaid': {
		base: { 'budget.avgHourlyRate.min': '20' },
		with: { 'budget.noAvgHourlyRatePaid': true },
		rows: [[stats({ avgHourlyRatePaid: 25 }), true, true], [stats({ avgHourlyRatePaid: null }), false, true], [stats({ avgHourlyRatePaid: 15 }), false, false]],
	},
	'budget.noHireRate': {
		base: { 'budget.minClientHireRate': 50 },
		with: { 'budget.noHireRate': true },
		rows: [[stats({ hireRate: 60 }), true, true], [stats({ hireRate: null }), false, true], [stats({ hireRate: 30 }), false, false]],
	},
	'budget.onlyContractToHire': {
		with: { 'budget.onlyContractToHire': true },
		rows: [[{ contractToHire: true }, true, true], [{ contractToHire: false }, true, false]],
	},
	'budget.minClientHireRate': {
		with: { 'budget.minClientHireRate': 50 },
		rows: [[stats({ hireRate: 60 }), true, true], [stats({ hireRate: 40 }), true, false], [stats({ hireRate: null }), true, false]],
	},

	'client.paymentMethodVerified': {
		with: { 'client.paymentMethodVerified': true },
		rows: [[client({ paymentMethodVerified: true }), true, true], [client({ paymentMethodVerified: false }), true, false]],
	},
	'client.phoneNumberVerified': {
		with: { 'client.phoneNumberVerified': true },
		rows: [[client({ phoneNumberVerified: true }), true, true], [client({ phoneNumberVerified: false }), true, false]],
	},
	'client.totalSpent.min': {
		with: { 'client.totalSpent.min': '1000' },
		rows: [[stats({ totalSpent: 5000 }), true, true], [stats({ totalSpent: 100 }), true, false]],
	},
	'client.totalSpent.max': {
		with: { 'client.totalSpent.max': '1000' },
		rows: [[stats({ totalSpent: 100 }), true, true], [stats({ totalSpent: 5000 }), true, false]],
	},
	'client.minFeedbackScore': {
		with: { 'client.minFeedbackScore': 4.5 },
		rows: [[stats({ feedbackRate: 4.8 }), true, true], [stats({ feedbackRate: 4.0 }), true, false], [stats({ feedbackRate: null }), true, false]],
	},
	'client.includeWithNoFeedback': {
		base: { 'client.minFeedbackScore': 4.5 },
		with: { 'client.includeWithNoFeedback': true },
		rows: [[stats({ feedbackRate: 4.8 }), true, true], [stats({ feedbackRate: null }), false, true], [stats({ feedbackRate: 4.0 }), false, false]],
	},
	'client.hireHistory': {
		with: { 'client.hireHistory': ['NONE', 'MORE_THAN'] },
		rows: [[stats({ totalHires: 0 }), true, true], [stats({ totalHires: 5 }), true, false], [stats({ totalHires: 10 }), true, true]],
	},
	'client.companySizeRange': {
		with: { 'client.companySizeRange': ['UP_TO_100_EMPOLOYEES'] },
		rows: [[client({ companySize: 'UP_TO_100_EMPOLOYEES' }), true, true], [client({ companySize: 'SOLO_ENTERPRENEUR' }), true, false]],
	},
	'client.includeLocations': {
		with: { 'client.includeLocations': country('DE') },
		rows: [[client({ countryCode: 'DE' }), true, true], [client({ countryCode: 'US' }), true, false]],
	},
	'client.excludeLocations': {
		with: { 'client.excludeLocations': country('DE') },
		rows: [[client({ countryCode: 'DE' }), true, false], [client({ countryCode: 'US' }), true, true]],
	},
	'client.includeIndustry': {
		with: { 'client.includeIndustry': ['tech & it'] },
		rows: [[client({ industry: 'Tech & IT' }), true, true], [client({ industry: 'Real Estate' }), true, false]],
	},
	'client.excludeIndustry': {
		with: { 'client.excludeIndustry': ['Tech & IT'] },
		rows: [[client({ industry: 'Tech & IT' }), true, false], [client({ industry: 'Real Estate' }), true, true]],
	},
	'client.timezones': {
		with: { 'client.timezones': ['Europe/Berlin'] },
		rows: [[client({ timezone: 'Europe/Berlin' }), true, true], [client({ timezone: 'America/New_York' }), true, false]],
	},
	'client.descriptionLanguage.include': {
		with: { 'client.descriptionLanguage.include': ['de'] },
		rows: [[{ descriptionLanguage: 'de' }, true, true], [{ descriptionLanguage: 'en' }, true, false]],
	},
	'client.descriptionLanguage.exclude': {
		with: { 'client.descriptionLanguage.exclude': ['de'] },
		rows: [[{ descriptionLanguage: 'de' }, true, false], [{ descriptionLanguage: 'en' }, true, true]],
	},

	'vendor.type': {
		with: { 'vendor.type': ['AGENCY'] },
		rows: [[vendor({ type: 'AGENCY' }), true, true], [vendor({ type: 'INDEPENDENT' }), true, false]],
	},
	'vendor.languages': {
		with: { 'vendor.languages': ['spanish'] },
		rows: [[vendor({ languages: ['English', 'Spanish'] }), true, true], [vendor({ languages: ['English'] }), true, false]],
	},
	'vendor.englishProficiency': {
		with: { 'vendor.englishProficiency': ['NATIVE'] },
		rows: [[vendor({ englishProficiency: 'NATIVE' }), true, true], [vendor({ englishProficiency: 'ANY' }), true, true], [vendor({ englishProficiency: 'FLUENT' }), true, false]],
	},
	'vendor.experienceLevel': {
		with: { 'vendor.experienceLevel': ['EXPERT'] },
		rows: [[vendor({ experienceLevel: 'EXPERT' }), true, true], [vendor({ experienceLevel: 'ENTRY_LEVEL' }), true, false]],
	},
	'vendor.minCustomJobScore': {
		with: { 'vendor.minCustomJobScore': 7 },
		rows: [[{ jobScore: 8.5 }, true, true], [{ jobScore: 3 }, true, false]],
	},
	'vendor.includeLocations': {
		with: { 'vendor.includeLocations': country('UA') },
		rows: [[vendor({ countries: ['UA', 'PL'] }), true, true], [vendor({ countries: ['US'] }), true, false], [vendor({ countries: [] }), true, false]],
	},
	'vendor.excludeLocations': {
		with: { 'vendor.excludeLocations': country('UA') },
		rows: [[vendor({ countries: ['UA'] }), true, false], [vendor({ countries: ['US'] }), true, true], [vendor({ countries: [] }), true, true]],
	},
	'vendor.includeFeatured': {
		with: { 'vendor.includeFeatured': false },
		rows: [[{ isFeatured: true }, true, false], [{ isFeatured: false }, true, true]],
	},
	'vendor.includeWithoutCountryPreference': {
		base: { 'vendor.includeLocations': country('UA') },
		with: { 'vendor.includeWithoutCountryPreference': true },
		rows: [[vendor({ countries: [] }), false, true], [vendor({ countries: ['UA'] }), true, true], [vendor({ countries: ['US'] }), false, false]],
	},
	'vendor.excludeWithQuestions': {
		with: { 'vendor.excludeWithQuestions': true },
		rows: [[{ questions: ['Why you?'] }, true, false], [{ questions: [] }, true, true]],
	},
};

let t: TestServer;
let key: string;

beforeAll(async () => {
	t = await startTestServer({ jobs: 0, accounts: [{ id: 'e', plan: 'enterprise' }] });
	key = await t.server.admin.issueKey('e');
});

afterAll(() => t.server.close());

it('has a semantics case for every filter of the schema, and none for a filter that does not exist', () => {
	expect(Object.keys(CASES).sort()).toEqual(FILTERS.map((f) => f.key).sort());
});

const SLOTS_START = Date.parse('2025-01-01T00:00:00.000Z');

describe.each(FILTERS.map((f, index) => [f.key, index] as const))('%s', (filterKey, index) => {
	it('changes which jobs come back as its help text says', async () => {
		const spec = CASES[filterKey];
		const slot = SLOTS_START + index * 24 * HOUR;
		// Minutes inside the slot are resolved here, so cases stay free of absolute times.
		const resolve = (body: Body): Body => {
			const out = { ...body };
			if (typeof out.fromDateMinute === 'number') out.fromDate = iso(slot + out.fromDateMinute * 60_000);
			if (typeof out.toDateMinute === 'number') out.toDate = iso(slot + out.toDateMinute * 60_000);
			delete out.fromDateMinute;
			delete out.toDateMinute;
			return out;
		};
		const jobs = t.server.admin.addJobs(
			spec.rows.map(([{ minute, at, ...job }], j) => ({ ...job, createdAt: iso(at ?? slot + (minute ?? j + 1) * 60_000) })),
		);
		const window = spec.window ?? { fromDate: iso(slot), toDate: iso(slot + 23 * HOUR) };
		const query = async (body: Body) => {
			const res = await t.call('search_jobs', resolve({ ...window, ...body }), key);
			expect(res.status).toBe(200);
			return (res.data.data.jobs as { uid: string }[]).map((j) => j.uid).sort();
		};
		const expected = (column: 1 | 2) => jobs.filter((_, j) => spec.rows[j][column]).map((j) => j.uid).sort();

		const base = await query(spec.base ?? {});
		const filtered = await query({ ...spec.base, ...spec.with });
		expect(base).toEqual(expected(1));
		expect(filtered).toEqual(expected(2));
		expect(filtered).not.toEqual(base);
	});
});
