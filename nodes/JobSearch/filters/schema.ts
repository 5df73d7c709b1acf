import { CATEGORY_GROUPS, allCategoryValue } from './categories';
import type { EnumOption, FilterSpec } from './types';

/**
 * The one schema of search_jobs input: all 53 flat keys of the public deployment.
 * Wire keys, wire types, ranges and enum values are the service's; titles and help are ours.
 * Everything else (n8n fields, request bodies, validation, JSON Schema, MCP, README) derives
 * from this list, so a filter is added or corrected here and nowhere else.
 */

export const MAX_ROWS_PER_CALL = 10_000;
export const DEFAULT_ROWS_PER_CALL = 100;

/**
 * Bounds on what one search may carry. Every list and every text of the wire is bounded here;
 * the server's validation, MCP `tools/list` and the node's pre-flight check all derive from
 * these, so one request cannot make the service do unbounded work.
 */
export const INPUT_BOUNDS = {
	/** Entries of a free-text list (keywords, industries, time zones, languages). */
	textListItems: 100,
	/** Characters of one entry of a free-text list. */
	textLength: 100,
	/** Entries of a country list: ISO 3166-1 has 249 codes. */
	locationListItems: 250,
	/** Characters of a USD amount such as "25.50". */
	moneyLength: 20,
	/** Characters of an ISO 8601 date-time, such as "2026-11-01T00:00:00.000+01:00" (29). */
	dateTimeLength: 40,
	/** Characters of a job uid (they have 19 digits). */
	jobUidLength: 32,
} as const;

// The n8n field stores the period in hours: n8n's lint leaves options whose values are numbers in
// their given order, so the list reads shortest first instead of alphabetically
// ("Last 14 Days, Last 24 Hours, ..."). The wire still gets '1h' ... '30d'.
const SEARCH_PERIODS: readonly EnumOption[] = [
	{ value: '1h', name: 'Last Hour', aliases: ['1 hour'], fieldValue: '1' },
	{ value: '6h', name: 'Last 6 Hours', aliases: ['6 hours'], fieldValue: '6' },
	{ value: '24h', name: 'Last 24 Hours', aliases: ['24 hours'], fieldValue: '24' },
	{ value: '7d', name: 'Last 7 Days', aliases: ['7 days'], fieldValue: '168' },
	{ value: '14d', name: 'Last 14 Days', aliases: ['14 days'], fieldValue: '336' },
	{ value: '30d', name: 'Last 30 Days', aliases: ['30 days'], fieldValue: '720' },
];

const CATEGORY_OPTIONS: readonly EnumOption[] = CATEGORY_GROUPS.flatMap((g) => [
	{ value: allCategoryValue(g.group), name: `${g.group}: All` },
	...g.subcategories.map((s) => ({ value: s, name: `${g.group}: ${s}` })),
]);

const JOB_DURATIONS: readonly EnumOption[] = [
	{ value: 'UNSPECIFIED', name: 'Unspecified' },
	{ value: 'UP_TO_ONE_MONTH', name: 'Up to 1 Month' },
	{ value: 'UP_TO_THREE_MONTHS', name: '1 to 3 Months' },
	{ value: 'UP_TO_SIX_MONTHS', name: '3 to 6 Months' },
	{ value: 'MORE_THAN_SIX_MONTHS', name: 'More Than 6 Months' },
];

const HOURLY_WORKLOADS: readonly EnumOption[] = [
	{ value: 'UNSPECIFIED', name: 'Unspecified' },
	{ value: 'LESS_THAN_30_HOURS', name: 'Less Than 30 Hours a Week' },
	{ value: 'MORE_THAN_30_HOURS', name: 'More Than 30 Hours a Week' },
];

const HIRE_HISTORY: readonly EnumOption[] = [
	{ value: 'NONE', name: 'No Hires Yet' },
	{ value: 'UP_TO', name: '1 to 9 Hires' },
	{ value: 'MORE_THAN', name: '10 or More Hires' },
];

// The wire values carry the service's own misspellings (ENTERPRENEUR, EMPOLOYEES): they must
// go out exactly so, while people read them spelled right.
const COMPANY_SIZES: readonly EnumOption[] = [
	{ value: 'UNSPECIFIED', name: 'Unspecified' },
	{ value: 'SOLO_ENTERPRENEUR', name: 'Solo Entrepreneur' },
	{ value: 'UP_TO_10_EMPLOYEES', name: '2 to 10 Employees' },
	{ value: 'UP_TO_100_EMPOLOYEES', name: '11 to 100 Employees' },
	{ value: 'UP_TO_500_EMPLOYEES', name: '101 to 500 Employees' },
	{ value: 'UP_TO_1K_EMPLOYEES', name: '501 to 1,000 Employees' },
	{ value: 'MORE_THAN_1K_EMPLOYEES', name: 'More Than 1,000 Employees' },
];

const EXPERIENCE_LEVELS: readonly EnumOption[] = [
	{ value: 'ENTRY_LEVEL', name: 'Entry Level' },
	{ value: 'INTERMEDIATE', name: 'Intermediate' },
	{ value: 'EXPERT', name: 'Expert' },
];

const VENDOR_TYPES: readonly EnumOption[] = [
	{ value: 'UNSPECIFIED', name: 'Unspecified' },
	{ value: 'INDEPENDENT', name: 'Independent Freelancer' },
	{ value: 'AGENCY', name: 'Agency' },
];

// How a list is written (comma-separated in n8n, a JSON array on the wire) is added per reader
// from the filter's type and example (describe.ts), so the help says only what the filter means.
const COUNTRY_HELP = 'Countries are two-letter ISO 3166-1 codes (GB is the United Kingdom, not UK).';

// The date picker gives a date and time without a zone: only the n8n field needs this said.
export const FILTERS: readonly FilterSpec[] = [
	// Basic
	{
		key: 'limit',
		group: 'Basic',
		title: 'Limit',
		type: 'integer',
		minimum: 1,
		maximum: MAX_ROWS_PER_CALL,
		default: DEFAULT_ROWS_PER_CALL,
		source: 'doc',
		help: `Maximum number of jobs to return, 1 to ${MAX_ROWS_PER_CALL.toLocaleString('en-US')} (default ${DEFAULT_ROWS_PER_CALL}). Every returned job is billed, so ask for no more than you need.`,
	},
	{
		key: 'searchPeriod',
		group: 'Basic',
		title: 'Search Period',
		type: 'choice',
		options: SEARCH_PERIODS,
		// The field's starting value when added (the service itself has no default period): the last
		// hour is often empty, a day is what a daily check or a first look wants.
		default: '24h',
		source: 'doc',
		help: 'Only jobs posted within this period before now. Combined with From Date and To Date, the window is their overlap.',
	},
	{
		key: 'fromDate',
		group: 'Basic',
		title: 'From Date',
		type: 'dateTime',
		source: 'doc',
		example: '2026-11-01T00:00:00Z',
		help: "Only jobs posted at or after this moment, in ISO 8601: a date alone (2026-11-01) is that day at 00:00 UTC; a date and time without a zone is in the workflow's time zone in n8n, UTC through the API; e.g. 2026-11-01T08:00:00Z.",
	},
	{
		key: 'toDate',
		group: 'Basic',
		title: 'To Date',
		type: 'dateTime',
		source: 'doc',
		example: '2026-11-20T23:59:59Z',
		help: "Only jobs posted at or before this moment, in ISO 8601: a date alone (2026-11-20) is that day at 00:00 UTC; a date and time without a zone is in the workflow's time zone in n8n, UTC through the API; e.g. 2026-11-20T23:59:59Z.",
	},
	{
		key: 'jobCategories',
		group: 'Basic',
		title: 'Job Categories',
		type: 'choiceList',
		options: CATEGORY_OPTIONS,
		source: 'doc',
		help: 'Only jobs in any of these Upwork categories. An option ending in ": All" matches every subcategory of its group.',
	},

	// Keywords
	{
		key: 'includeKeywords.keywords',
		group: 'Keywords',
		title: 'Include Keywords',
		type: 'textList',
		source: 'doc',
		example: 'n8n, automation, zapier',
		help: 'Words or phrases; a job matches if any of them appears (case-insensitive) in the fields chosen with the Include Keywords: Match options (all fields when none is set).',
	},
	{
		key: 'includeKeywords.matchTitle',
		group: 'Keywords',
		title: 'Include Keywords: Match Title',
		type: 'boolean',
		source: 'doc',
		help: 'Whether Include Keywords are looked for in the job title.',
	},
	{
		key: 'includeKeywords.matchDescription',
		group: 'Keywords',
		title: 'Include Keywords: Match Description',
		type: 'boolean',
		source: 'doc',
		help: 'Whether Include Keywords are looked for in the job description.',
	},
	{
		key: 'includeKeywords.matchSkills',
		group: 'Keywords',
		title: 'Include Keywords: Match Skills',
		type: 'boolean',
		source: 'doc',
		help: 'Whether Include Keywords are looked for in the job skills.',
	},
	{
		key: 'excludeKeywords.keywords',
		group: 'Keywords',
		title: 'Exclude Keywords',
		type: 'textList',
		source: 'doc',
		example: 'wordpress, unpaid',
		help: 'Words or phrases; a job is dropped if any of them appears (case-insensitive) in the fields chosen with the Exclude Keywords: Match options (all fields when none is set).',
	},
	{
		key: 'excludeKeywords.matchTitle',
		group: 'Keywords',
		title: 'Exclude Keywords: Match Title',
		type: 'boolean',
		source: 'doc',
		help: 'Whether Exclude Keywords are looked for in the job title.',
	},
	{
		key: 'excludeKeywords.matchDescription',
		group: 'Keywords',
		title: 'Exclude Keywords: Match Description',
		type: 'boolean',
		source: 'doc',
		help: 'Whether Exclude Keywords are looked for in the job description.',
	},
	{
		key: 'excludeKeywords.matchSkills',
		group: 'Keywords',
		title: 'Exclude Keywords: Match Skills',
		type: 'boolean',
		source: 'doc',
		help: 'Whether Exclude Keywords are looked for in the job skills.',
	},

	// Budget & Payment (the job's own budget; the client's rates and hire rate, wire prefix "budget."
	// notwithstanding, are under Client Requirements, where a user looks for them)
	{
		key: 'budget.hourlyRate.min',
		group: 'Budget & Payment',
		title: 'Hourly Rate Min (USD)',
		type: 'money',
		example: '25',
		source: 'doc',
		help: 'Only hourly jobs whose maximum offered rate is at least this many US dollars per hour.',
	},
	{
		key: 'budget.hourlyRate.max',
		group: 'Budget & Payment',
		title: 'Hourly Rate Max (USD)',
		type: 'money',
		example: '80',
		source: 'doc',
		help: 'Only hourly jobs whose minimum offered rate is at most this many US dollars per hour.',
	},
	{
		key: 'budget.fixedPrice.min',
		group: 'Budget & Payment',
		title: 'Fixed Price Min (USD)',
		type: 'money',
		example: '500',
		source: 'doc',
		help: 'Only fixed-price jobs with a budget of at least this many US dollars.',
	},
	{
		key: 'budget.fixedPrice.max',
		group: 'Budget & Payment',
		title: 'Fixed Price Max (USD)',
		type: 'money',
		example: '5000',
		source: 'doc',
		help: 'Only fixed-price jobs with a budget of at most this many US dollars.',
	},
	{
		key: 'budget.connectsPrice.min',
		group: 'Budget & Payment',
		title: 'Connects Price Min',
		example: '4',
		type: 'integer',
		minimum: 0,
		source: 'doc',
		help: 'Only jobs that cost at least this many Upwork Connects to apply to.',
	},
	{
		key: 'budget.connectsPrice.max',
		group: 'Budget & Payment',
		title: 'Connects Price Max',
		example: '16',
		type: 'integer',
		minimum: 0,
		source: 'doc',
		help: 'Only jobs that cost at most this many Upwork Connects to apply to.',
	},
	{
		key: 'budget.jobDurations',
		group: 'Budget & Payment',
		title: 'Job Durations',
		type: 'choiceList',
		options: JOB_DURATIONS,
		source: 'doc',
		help: 'Only jobs whose expected duration is one of these.',
	},
	{
		key: 'budget.hourlyWorkloads',
		group: 'Budget & Payment',
		title: 'Hourly Workloads',
		type: 'choiceList',
		options: HOURLY_WORKLOADS,
		source: 'upstream',
		help: 'Only hourly jobs whose weekly workload is one of these.',
	},
	{
		key: 'budget.allowUnspecifiedBudget',
		group: 'Budget & Payment',
		title: 'Allow Unspecified Budget',
		type: 'boolean',
		source: 'upstream',
		help: 'Whether jobs that state no budget or rate still pass the budget filters.',
	},
	{
		key: 'budget.onlyContractToHire',
		group: 'Budget & Payment',
		title: 'Only Contract-to-Hire',
		type: 'boolean',
		source: 'upstream',
		help: 'Whether to return only jobs offered as contract-to-hire.',
	},

	// Client Requirements
	{
		key: 'budget.avgHourlyRate.min',
		group: 'Client Requirements',
		title: 'Client Avg Hourly Rate Paid Min (USD)',
		type: 'money',
		example: '20',
		source: 'upstream',
		help: "Only jobs whose client has paid freelancers at least this average hourly rate in US dollars.",
	},
	{
		key: 'budget.avgHourlyRate.max',
		group: 'Client Requirements',
		title: 'Client Avg Hourly Rate Paid Max (USD)',
		type: 'money',
		example: '100',
		source: 'upstream',
		help: "Only jobs whose client has paid freelancers at most this average hourly rate in US dollars.",
	},
	{
		key: 'budget.noAvgHourlyRatePaid',
		group: 'Client Requirements',
		title: 'Include Clients Without Avg Rate Paid',
		type: 'boolean',
		source: 'upstream',
		help: 'Whether clients who have never paid an hourly rate still pass the average hourly rate filters.',
	},
	{
		key: 'budget.noHireRate',
		group: 'Client Requirements',
		title: 'Include Clients Without Hire Rate',
		type: 'boolean',
		source: 'upstream',
		help: 'Whether clients with no hire rate yet still pass the Min Client Hire Rate filter.',
	},
	{
		key: 'budget.minClientHireRate',
		group: 'Client Requirements',
		title: 'Min Client Hire Rate (%)',
		example: '50',
		type: 'integer',
		minimum: 0,
		maximum: 100,
		source: 'upstream',
		help: 'Only jobs whose client hired for at least this percentage of their past postings, 0 to 100.',
	},
	{
		key: 'client.paymentMethodVerified',
		group: 'Client Requirements',
		title: 'Payment Method Verified',
		type: 'boolean',
		source: 'upstream',
		help: 'Whether to return only jobs whose client has a verified payment method.',
	},
	{
		key: 'client.phoneNumberVerified',
		group: 'Client Requirements',
		title: 'Phone Number Verified',
		type: 'boolean',
		source: 'upstream',
		help: 'Whether to return only jobs whose client has a verified phone number.',
	},
	{
		key: 'client.totalSpent.min',
		group: 'Client Requirements',
		title: 'Client Total Spent Min (USD)',
		type: 'money',
		example: '1000',
		source: 'upstream',
		help: 'Only jobs whose client has spent at least this many US dollars on the marketplace.',
	},
	{
		key: 'client.totalSpent.max',
		group: 'Client Requirements',
		title: 'Client Total Spent Max (USD)',
		type: 'money',
		example: '100000',
		source: 'upstream',
		help: 'Only jobs whose client has spent at most this many US dollars on the marketplace.',
	},
	{
		key: 'client.minFeedbackScore',
		group: 'Client Requirements',
		title: 'Min Client Feedback Score',
		example: '4.5',
		type: 'number',
		minimum: 0,
		maximum: 5,
		source: 'upstream',
		help: 'Only jobs whose client has an average feedback score of at least this, 0 to 5.',
	},
	{
		key: 'client.includeWithNoFeedback',
		group: 'Client Requirements',
		title: 'Include Clients Without Feedback',
		type: 'boolean',
		source: 'upstream',
		help: 'Whether clients who have no feedback yet still pass Min Client Feedback Score.',
	},
	{
		key: 'client.hireHistory',
		group: 'Client Requirements',
		title: 'Client Hire History',
		type: 'choiceList',
		options: HIRE_HISTORY,
		source: 'upstream',
		help: 'Only jobs whose client has hired this many freelancers before.',
	},
	{
		key: 'client.companySizeRange',
		group: 'Client Requirements',
		title: 'Client Company Size',
		type: 'choiceList',
		options: COMPANY_SIZES,
		source: 'upstream',
		help: "Only jobs whose client's company has one of these sizes.",
	},
	{
		key: 'client.includeLocations',
		group: 'Client Requirements',
		title: 'Client Countries',
		type: 'locationList',
		example: 'US, GB, DE',
		source: 'upstream',
		help: `Only jobs whose client is in one of these countries. ${COUNTRY_HELP}`,
	},
	{
		key: 'client.excludeLocations',
		group: 'Client Requirements',
		title: 'Exclude Client Countries',
		type: 'locationList',
		example: 'US, GB, DE',
		source: 'upstream',
		help: `Drop jobs whose client is in one of these countries. ${COUNTRY_HELP}`,
	},
	{
		key: 'client.includeIndustry',
		group: 'Client Requirements',
		title: 'Client Industries',
		type: 'textList',
		source: 'upstream',
		example: 'Tech & IT, Retail',
		help: "Industries; only jobs whose client's industry is one of them.",
	},
	{
		key: 'client.excludeIndustry',
		group: 'Client Requirements',
		title: 'Exclude Client Industries',
		type: 'textList',
		source: 'upstream',
		example: 'Gambling, Adult',
		help: "Industries; drop jobs whose client's industry is one of them.",
	},
	{
		key: 'client.timezones',
		group: 'Client Requirements',
		title: 'Client Time Zones',
		type: 'textList',
		source: 'upstream',
		example: 'America/New_York, Europe/London',
		help: 'IANA time zones; only jobs whose client is in one of them.',
	},
	{
		key: 'client.descriptionLanguage.include',
		group: 'Client Requirements',
		title: 'Description Languages',
		type: 'textList',
		source: 'upstream',
		example: 'en, de',
		help: 'ISO 639-1 language codes; only jobs whose description is written in one of them.',
	},
	{
		key: 'client.descriptionLanguage.exclude',
		group: 'Client Requirements',
		title: 'Exclude Description Languages',
		type: 'textList',
		source: 'upstream',
		example: 'ru, zh',
		help: 'ISO 639-1 language codes; drop jobs whose description is written in one of them.',
	},

	// Vendor Preferences
	{
		key: 'vendor.type',
		group: 'Vendor Preferences',
		title: 'Freelancer Type',
		type: 'choiceList',
		options: VENDOR_TYPES,
		source: 'upstream',
		help: 'Only jobs that ask for this kind of freelancer.',
	},
	{
		key: 'vendor.languages',
		group: 'Vendor Preferences',
		title: 'Freelancer Languages',
		type: 'textList',
		source: 'upstream',
		example: 'English, Spanish',
		help: 'Language names; only jobs that ask for (or accept) one of them.',
	},
	{
		key: 'vendor.englishProficiency',
		group: 'Vendor Preferences',
		title: 'English Proficiency',
		type: 'textList',
		source: 'ours',
		example: 'FLUENT, NATIVE',
		help: 'Proficiency levels; only jobs that ask for one of them (or state none).',
	},
	{
		key: 'vendor.experienceLevel',
		group: 'Vendor Preferences',
		title: 'Experience Level',
		type: 'choiceList',
		options: EXPERIENCE_LEVELS,
		source: 'upstream',
		help: 'Only jobs that ask for one of these experience levels.',
	},
	{
		key: 'vendor.minCustomJobScore',
		group: 'Vendor Preferences',
		title: 'Min Job Score',
		example: '7',
		type: 'number',
		minimum: 0,
		source: 'upstream',
		help: "Only jobs whose match score is at least this (the service's own score of how good a job is; higher is better).",
	},
	{
		key: 'vendor.includeLocations',
		group: 'Vendor Preferences',
		title: 'Freelancer Countries',
		type: 'locationList',
		example: 'US, GB, DE',
		source: 'upstream',
		help: `Only jobs open to freelancers in one of these countries. ${COUNTRY_HELP}`,
	},
	{
		key: 'vendor.excludeLocations',
		group: 'Vendor Preferences',
		title: 'Exclude Freelancer Countries',
		type: 'locationList',
		example: 'US, GB, DE',
		source: 'upstream',
		help: `Drop jobs that are restricted to freelancers in one of these countries. ${COUNTRY_HELP}`,
	},
	{
		key: 'vendor.includeFeatured',
		group: 'Vendor Preferences',
		title: 'Include Featured Jobs',
		type: 'boolean',
		source: 'upstream',
		help: 'Whether featured (promoted) jobs are returned. Off drops them.',
	},
	{
		key: 'vendor.includeWithoutCountryPreference',
		group: 'Vendor Preferences',
		title: 'Include Jobs Without Country Preference',
		type: 'boolean',
		source: 'upstream',
		help: 'Whether jobs that state no freelancer country still pass Freelancer Countries.',
	},
	{
		key: 'vendor.excludeWithQuestions',
		group: 'Vendor Preferences',
		title: 'Exclude Jobs With Screening Questions',
		type: 'boolean',
		source: 'upstream',
		help: 'Whether to drop jobs that ask applicants screening questions.',
	},
];

export const FILTER_BY_KEY: ReadonlyMap<string, FilterSpec> = new Map(FILTERS.map((f) => [f.key, f]));

export interface FilterRange {
	min: FilterSpec;
	max: FilterSpec;
}

/**
 * Every minimum with its maximum ("budget.fixedPrice.min" and "budget.fixedPrice.max"): a minimum
 * above its maximum matches no job, so it is refused wherever a search is checked.
 */
export const FILTER_RANGES: readonly FilterRange[] = FILTERS.flatMap((min) => {
	const max = min.key.endsWith('.min') ? FILTER_BY_KEY.get(`${min.key.slice(0, -'min'.length)}max`) : undefined;
	return max ? [{ min, max }] : [];
});
