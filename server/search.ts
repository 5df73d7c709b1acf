import { CATEGORY_GROUPS, DEFAULT_ROWS_PER_CALL, wireDateToUtcMs, type CountryLocation } from '../nodes/JobSearch/filters';
import { approximateTotal } from './liveOptions';
import type { Job } from './model';
import type { Random } from './random';
import { compareEntries, firstAtOrBefore, firstBefore, type Entry, type JobStore } from './store';

/** A search_jobs body that already passed the JSON Schema. */
export type SearchBody = Record<string, unknown>;

type Predicate = (job: Job) => boolean;

export interface CompiledQuery {
	fromMs: number;
	toMs: number;
	/** Subcategory names, or null for every category. */
	categories: Set<string> | null;
	predicates: Predicate[];
	limit: number;
	/** The filters as text (every field but the window and limit): one name per filter for the store's standing filters. */
	filterKey: string;
}

export interface SearchResult {
	jobs: Job[];
	total: number;
}

/** How an index answers beyond the jobs it finds: the documented answer when both are absent. */
export interface AnswerShape {
	/** `total` rounded as search engines report large counts (see approximateTotal). */
	approximateTotals?: boolean;
	/** Ties in createdAt come back shuffled with this stream instead of by uid descending. */
	tieOrder?: Random;
}

const HOUR_MS = 3_600_000;
const PERIOD_UNIT_MS: Record<string, number> = { h: HOUR_MS, hour: HOUR_MS, hours: HOUR_MS, d: 24 * HOUR_MS, day: 24 * HOUR_MS, days: 24 * HOUR_MS };

/** "24h" and "24 hours" alike (docs/service.md#search-period); the schema already limited the values. */
export function periodMs(searchPeriod: string): number {
	const match = /^(\d+)\s*([a-z]+)$/.exec(searchPeriod.trim().toLowerCase());
	const unit = match ? PERIOD_UNIT_MS[match[2]] : undefined;
	if (!match || unit === undefined) throw new Error(`unsupported searchPeriod ${searchPeriod}`);
	return Number(match[1]) * unit;
}

function expandCategories(values: readonly string[]): Set<string> {
	const out = new Set<string>();
	for (const value of values) {
		const group = CATEGORY_GROUPS.find((g) => `All - ${g.group}` === value);
		if (group) group.subcategories.forEach((s) => out.add(s));
		else out.add(value);
	}
	return out;
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** "Any keyword, case-insensitive, in the chosen fields; all fields when none is chosen." */
function keywordMatcher(body: SearchBody, prefix: 'includeKeywords' | 'excludeKeywords'): Predicate | undefined {
	const keywords = body[`${prefix}.keywords`] as string[] | undefined;
	if (!keywords || keywords.length === 0) return undefined;
	const pattern = new RegExp(keywords.map(escapeRegExp).join('|'), 'iu');
	let title = body[`${prefix}.matchTitle`] === true;
	let description = body[`${prefix}.matchDescription`] === true;
	let skills = body[`${prefix}.matchSkills`] === true;
	if (!title && !description && !skills) title = description = skills = true;
	return (job) =>
		(title && pattern.test(job.title)) ||
		(description && pattern.test(job.description)) ||
		(skills && job.skills.some((s) => pattern.test(s)));
}

function money(body: SearchBody, key: string): number | undefined {
	const value = body[key];
	return typeof value === 'string' ? Number(value) : undefined;
}

function num(body: SearchBody, key: string): number | undefined {
	const value = body[key];
	return typeof value === 'number' ? value : undefined;
}

function within(value: number, min: number | undefined, max: number | undefined): boolean {
	return (min === undefined || value >= min) && (max === undefined || value <= max);
}

function hasNoBudget(job: Job): boolean {
	return job.jobType === 'HOURLY'
		? job.budget.hourlyRate.min === null && job.budget.hourlyRate.max === null
		: job.budget.fixedBudget === null;
}

/**
 * Hourly bounds pick hourly jobs, fixed-price bounds pick fixed-price jobs; with both, a job
 * passes either by its own type (as Upwork's own search combines them). Jobs without a budget
 * pass only with allowUnspecifiedBudget.
 */
function budgetMatcher(body: SearchBody): Predicate | undefined {
	const hourlyMin = money(body, 'budget.hourlyRate.min');
	const hourlyMax = money(body, 'budget.hourlyRate.max');
	const fixedMin = money(body, 'budget.fixedPrice.min');
	const fixedMax = money(body, 'budget.fixedPrice.max');
	const hourly = hourlyMin !== undefined || hourlyMax !== undefined;
	const fixed = fixedMin !== undefined || fixedMax !== undefined;
	if (!hourly && !fixed) return undefined;
	const allowUnspecified = body['budget.allowUnspecifiedBudget'] === true;
	return (job) => {
		if (hasNoBudget(job)) return allowUnspecified;
		if (job.jobType === 'HOURLY') {
			if (!hourly) return false;
			const { min, max } = job.budget.hourlyRate;
			// The offered range must reach the wanted one: its top against the minimum, its bottom against the maximum.
			return (hourlyMin === undefined || (max ?? min)! >= hourlyMin) && (hourlyMax === undefined || (min ?? max)! <= hourlyMax);
		}
		return fixed && within(job.budget.fixedBudget!, fixedMin, fixedMax);
	};
}

/** A bound on a client statistic that may be missing; `acceptMissing` lets the missing ones through. */
function optionalStat(
	read: (job: Job) => number | null,
	min: number | undefined,
	max: number | undefined,
	acceptMissing: boolean,
): Predicate | undefined {
	if (min === undefined && max === undefined) return undefined;
	return (job) => {
		const value = read(job);
		return value === null ? acceptMissing : within(value, min, max);
	};
}

function oneOf<T>(values: unknown, read: (job: Job) => T, normalise: (v: T | string) => string = String): Predicate | undefined {
	if (!Array.isArray(values) || values.length === 0) return undefined;
	const wanted = new Set(values.map((v) => normalise(v as string)));
	return (job) => wanted.has(normalise(read(job)));
}

function noneOf<T>(values: unknown, read: (job: Job) => T, normalise: (v: T | string) => string = String): Predicate | undefined {
	const matches = oneOf(values, read, normalise);
	return matches && ((job) => !matches(job));
}

const lower = (v: unknown) => String(v).toLowerCase();
const countries = (values: unknown) => (values as CountryLocation[] | undefined)?.map((l) => l.value);

function hireHistoryBucket(job: Job): string {
	const hires = job.client.stats.totalHires;
	return hires === 0 ? 'NONE' : hires < 10 ? 'UP_TO' : 'MORE_THAN';
}

function vendorCountryMatchers(body: SearchBody): Predicate[] {
	const out: Predicate[] = [];
	const include = countries(body['vendor.includeLocations']);
	if (include && include.length > 0) {
		const wanted = new Set(include);
		const withoutPreference = body['vendor.includeWithoutCountryPreference'] === true;
		out.push((job) => (job.vendor.countries.length === 0 ? withoutPreference : job.vendor.countries.some((c) => wanted.has(c))));
	}
	const exclude = countries(body['vendor.excludeLocations']);
	if (exclude && exclude.length > 0) {
		const unwanted = new Set(exclude);
		out.push((job) => !job.vendor.countries.some((c) => unwanted.has(c)));
	}
	return out;
}

function flag(body: SearchBody, key: string, predicate: Predicate): Predicate | undefined {
	return body[key] === true ? predicate : undefined;
}

function predicatesOf(body: SearchBody): Predicate[] {
	const candidates: (Predicate | undefined)[] = [
		keywordMatcher(body, 'includeKeywords'),
		(() => {
			const exclude = keywordMatcher(body, 'excludeKeywords');
			return exclude && ((job: Job) => !exclude(job));
		})(),
		budgetMatcher(body),
		(() => {
			const min = num(body, 'budget.connectsPrice.min');
			const max = num(body, 'budget.connectsPrice.max');
			return min === undefined && max === undefined ? undefined : (job: Job) => within(job.applicationCost, min, max);
		})(),
		oneOf(body['budget.jobDurations'], (job) => job.duration),
		(() => {
			const workloads = oneOf(body['budget.hourlyWorkloads'], (job) => job.workload);
			return workloads && ((job: Job) => job.jobType === 'HOURLY' && workloads(job));
		})(),
		optionalStat(
			(job) => job.client.stats.avgHourlyRatePaid,
			money(body, 'budget.avgHourlyRate.min'),
			money(body, 'budget.avgHourlyRate.max'),
			body['budget.noAvgHourlyRatePaid'] === true,
		),
		optionalStat((job) => job.client.stats.hireRate, num(body, 'budget.minClientHireRate'), undefined, body['budget.noHireRate'] === true),
		flag(body, 'budget.onlyContractToHire', (job) => job.contractToHire),
		flag(body, 'client.paymentMethodVerified', (job) => job.client.paymentMethodVerified),
		flag(body, 'client.phoneNumberVerified', (job) => job.client.phoneNumberVerified),
		optionalStat((job) => job.client.stats.totalSpent, money(body, 'client.totalSpent.min'), money(body, 'client.totalSpent.max'), false),
		optionalStat(
			(job) => job.client.stats.feedbackRate,
			num(body, 'client.minFeedbackScore'),
			undefined,
			body['client.includeWithNoFeedback'] === true,
		),
		oneOf(body['client.hireHistory'], hireHistoryBucket),
		oneOf(body['client.companySizeRange'], (job) => job.client.companySize),
		oneOf(countries(body['client.includeLocations']), (job) => job.client.countryCode),
		noneOf(countries(body['client.excludeLocations']), (job) => job.client.countryCode),
		oneOf(body['client.includeIndustry'], (job) => job.client.industry, lower),
		noneOf(body['client.excludeIndustry'], (job) => job.client.industry, lower),
		oneOf(body['client.timezones'], (job) => job.client.timezone, lower),
		oneOf(body['client.descriptionLanguage.include'], (job) => job.descriptionLanguage, lower),
		noneOf(body['client.descriptionLanguage.exclude'], (job) => job.descriptionLanguage, lower),
		oneOf(body['vendor.type'], (job) => job.vendor.type),
		(() => {
			const languages = body['vendor.languages'] as string[] | undefined;
			if (!languages || languages.length === 0) return undefined;
			const wanted = new Set(languages.map(lower));
			return (job: Job) => job.vendor.languages.some((l) => wanted.has(lower(l)));
		})(),
		(() => {
			const levels = oneOf(body['vendor.englishProficiency'], (job) => job.vendor.englishProficiency, lower);
			return levels && ((job: Job) => job.vendor.englishProficiency === 'ANY' || levels(job));
		})(),
		oneOf(body['vendor.experienceLevel'], (job) => job.vendor.experienceLevel),
		optionalStat((job) => job.jobScore, num(body, 'vendor.minCustomJobScore'), undefined, false),
		...vendorCountryMatchers(body),
		body['vendor.includeFeatured'] === false ? (job) => !job.isFeatured : undefined,
		flag(body, 'vendor.excludeWithQuestions', (job) => job.questions.length === 0),
	];
	return candidates.filter((p): p is Predicate => p !== undefined);
}

const WINDOW_AND_PAGE = new Set(['searchPeriod', 'fromDate', 'toDate', 'limit']);

/** The time window (docs/service.md#search-period): searchPeriod before now, intersected with fromDate and toDate. */
export function compileQuery(body: SearchBody, nowMs: number): CompiledQuery {
	let fromMs = -Infinity;
	let toMs = Infinity;
	if (typeof body.searchPeriod === 'string') fromMs = nowMs - periodMs(body.searchPeriod);
	// Read as the schema says: a date alone at 00:00 UTC, a time without a zone in UTC.
	if (typeof body.fromDate === 'string') fromMs = Math.max(fromMs, wireDateToUtcMs(body.fromDate));
	if (typeof body.toDate === 'string') toMs = Math.min(toMs, wireDateToUtcMs(body.toDate));
	const categories = Array.isArray(body.jobCategories) && body.jobCategories.length > 0 ? expandCategories(body.jobCategories) : null;
	const limit = typeof body.limit === 'number' ? body.limit : DEFAULT_ROWS_PER_CALL;
	const filters = Object.keys(body)
		.filter((key) => !WINDOW_AND_PAGE.has(key))
		.sort()
		.map((key) => [key, body[key]]);
	return { fromMs, toMs, categories, predicates: predicatesOf(body), limit, filterKey: JSON.stringify(filters) };
}

/** The window's bounds in `entries` (newest first): [first inside, first older). */
function windowOf(entries: readonly Entry[], query: CompiledQuery): [number, number] {
	if (query.fromMs > query.toMs) return [0, 0];
	return [firstAtOrBefore(entries, query.toMs), firstBefore(entries, query.fromMs)];
}

/** Counts and pages entries[from, to), every one a match: the count is the window's size, and only the page is read. */
function collect(entries: readonly Entry[], from: number, to: number, limit: number, shape: AnswerShape): SearchResult {
	const { tieOrder } = shape;
	let end = Math.min(to, from + limit);
	// With shuffled ties the page keeps the whole group it ends in, so any member may land on it.
	if (tieOrder && end > from) while (end < to && entries[end].createdMs === entries[end - 1].createdMs) end++;
	const page = entries.slice(from, end);
	if (tieOrder) {
		shuffleTies(page, tieOrder);
		page.length = Math.min(page.length, limit);
	}
	const total = to - from;
	return { jobs: page.map((entry) => entry.job), total: shape.approximateTotals ? approximateTotal(total) : total };
}

/** Shuffles each run of entries that share a createdAt, in place (Fisher-Yates within the run). */
function shuffleTies(entries: Entry[], random: Random): void {
	let start = 0;
	while (start < entries.length) {
		let end = start + 1;
		while (end < entries.length && entries[end].createdMs === entries[start].createdMs) end++;
		for (let i = end - 1; i > start; i--) {
			const j = start + Math.floor(random() * (i - start + 1));
			[entries[i], entries[j]] = [entries[j], entries[i]];
		}
		start = end;
	}
}

/**
 * Binary-searches the window: in the whole index without filters, in the index of each asked
 * category with categories only, in the store's standing list for the filters otherwise.
 */
export function search(store: JobStore, query: CompiledQuery, shape: AnswerShape = {}): SearchResult {
	if (query.predicates.length > 0) {
		const { categories, predicates } = query;
		const passes = (job: Job) => (categories === null || categories.has(job.category)) && predicates.every((predicate) => predicate(job));
		const entries = store.visibleMatching(query.filterKey, passes);
		return collect(entries, ...windowOf(entries, query), query.limit, shape);
	}
	if (query.categories === null) {
		const entries = store.visible();
		return collect(entries, ...windowOf(entries, query), query.limit, shape);
	}
	const parts = [...query.categories].map((c) => {
		const entries = store.visibleInCategory(c);
		return entries.slice(...windowOf(entries, query));
	});
	const candidates = parts.length === 1 ? parts[0] : parts.flat().sort(compareEntries);
	return collect(candidates, 0, candidates.length, query.limit, shape);
}

/** The same answer by scanning every job: the baseline the index is measured and checked against. */
export function searchByFullScan(store: JobStore, query: CompiledQuery): SearchResult {
	const matching = store
		.visible()
		.filter((e) => e.createdMs >= query.fromMs && e.createdMs <= query.toMs && (query.categories?.has(e.job.category) ?? true))
		.sort(compareEntries);
	const pass = (e: Entry) => query.predicates.every((predicate) => predicate(e.job));
	const all = matching.filter(pass);
	return { jobs: all.slice(0, query.limit).map((e) => e.job), total: all.length };
}
