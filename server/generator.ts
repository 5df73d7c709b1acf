import { CATEGORY_GROUPS } from '../nodes/JobSearch/filters';
import {
	COMPANY_SIZES,
	COUNTRIES,
	DESCRIPTION_DETAILS,
	DESCRIPTION_OPENINGS,
	ENGLISH_PROFICIENCIES,
	FREELANCER_COUNTRIES,
	FREELANCER_LANGUAGES,
	GROUP_VOCABULARY,
	INDUSTRIES,
	SCREENING_QUESTIONS,
	TITLE_TEMPLATES,
} from './catalog';
import type { Job } from './model';
import { chance, intBetween, pick, pickSome, type Random } from './random';

// 19 digits like Upwork's; the serial step leaves room for a random tail, so uids never collide
// and grow with time as upstream ones do.
const UID_BASE = 1_900_000_000_000_000_000n;
const UID_SERIAL_STEP = 1000n;

const GROUP_OF_CATEGORY: ReadonlyMap<string, string> = new Map(
	CATEGORY_GROUPS.flatMap((g) => g.subcategories.map((s) => [s, g.group] as const)),
);

export function categoryGroupOf(category: string): string | undefined {
	return GROUP_OF_CATEGORY.get(category);
}

export function makeUid(random: Random, serial: number): string {
	return String(UID_BASE + BigInt(serial) * UID_SERIAL_STEP + BigInt(intBetween(random, 0, 999)));
}

export function externalLinkOf(uid: string): string {
	return `https://www.upwork.com/jobs/~02${uid}`;
}

function weightedCountry(random: Random): (typeof COUNTRIES)[number] {
	const total = COUNTRIES.reduce((sum, c) => sum + c.weight, 0);
	let roll = random() * total;
	for (const country of COUNTRIES) {
		roll -= country.weight;
		if (roll < 0) return country;
	}
	return COUNTRIES[0];
}

function budgetOf(random: Random, jobType: Job['jobType']): Job['budget'] {
	if (jobType === 'HOURLY') {
		if (chance(random, 0.1)) return { fixedBudget: null, hourlyRate: { min: null, max: null } };
		const min = intBetween(random, 5, 80);
		return { fixedBudget: null, hourlyRate: { min, max: min + intBetween(random, 5, 60) } };
	}
	if (chance(random, 0.08)) return { fixedBudget: null, hourlyRate: { min: null, max: null } };
	const base = pick(random, [50, 100, 250, 500, 1000, 2500, 5000, 10000]);
	return { fixedBudget: Math.round(base * (0.6 + random() * 0.8)), hourlyRate: { min: null, max: null } };
}

function clientOf(random: Random): Job['client'] {
	const country = weightedCountry(random);
	const isNew = chance(random, 0.25);
	const totalHires = isNew ? 0 : chance(random, 0.7) ? intBetween(random, 1, 9) : intBetween(random, 10, 120);
	const feedbackCount = totalHires === 0 ? 0 : Math.max(0, Math.round(totalHires * (0.4 + random() * 0.6)));
	return {
		countryCode: country.code,
		timezone: country.timezone,
		industry: pick(random, INDUSTRIES),
		companySize: pick(random, COMPANY_SIZES),
		paymentMethodVerified: chance(random, 0.8),
		phoneNumberVerified: chance(random, 0.7),
		stats: {
			totalSpent: totalHires === 0 ? 0 : Math.round(totalHires * (200 + random() * 3000)),
			totalHires,
			hireRate: isNew ? null : totalHires === 0 ? 0 : intBetween(random, 20, 100),
			feedbackRate: feedbackCount === 0 ? null : Math.round((3.5 + random() * 1.5) * 100) / 100,
			feedbackCount,
			avgHourlyRatePaid: totalHires > 0 && chance(random, 0.7) ? Math.round((8 + random() * 70) * 100) / 100 : null,
		},
	};
}

function vendorOf(random: Random): Job['vendor'] {
	const roll = random();
	return {
		experienceLevel: pick(random, ['ENTRY_LEVEL', 'INTERMEDIATE', 'EXPERT'] as const),
		type: roll < 0.7 ? 'UNSPECIFIED' : roll < 0.9 ? 'INDEPENDENT' : 'AGENCY',
		languages: chance(random, 0.15) ? ['English', pick(random, FREELANCER_LANGUAGES.slice(1))] : ['English'],
		englishProficiency: chance(random, 0.6) ? 'ANY' : pick(random, ENGLISH_PROFICIENCIES.slice(1)),
		countries: chance(random, 0.15) ? pickSome(random, FREELANCER_COUNTRIES, intBetween(random, 1, 3)) : [],
	};
}

/** One realistic posting. Same random stream, same job. */
export function generateJob(random: Random, serial: number, createdMs: number): Job {
	const group = pick(random, CATEGORY_GROUPS);
	const vocabulary = GROUP_VOCABULARY[group.group];
	const task = pick(random, vocabulary.tasks);
	const skills = pickSome(random, vocabulary.skills, intBetween(random, 2, 5));
	const language = chance(random, 0.85) ? 'en' : pick(random, Object.keys(DESCRIPTION_OPENINGS).slice(1));
	const jobType: Job['jobType'] = chance(random, 0.55) ? 'HOURLY' : 'FIXED';
	const budget = budgetOf(random, jobType);
	const uid = makeUid(random, serial);
	const description = [
		DESCRIPTION_OPENINGS[language](task),
		`Required skills: ${skills.join(', ')}.`,
		...pickSome(random, DESCRIPTION_DETAILS, 2),
	].join(' ');
	return {
		uid,
		title: pick(random, TITLE_TEMPLATES)(task),
		hourlyRate: budget.hourlyRate.max ?? 0,
		createdAt: new Date(createdMs).toISOString(),
		description,
		skills,
		category: pick(random, group.subcategories),
		categoryGroup: group.group,
		jobType,
		budget,
		duration: pick(random, ['UNSPECIFIED', 'UP_TO_ONE_MONTH', 'UP_TO_THREE_MONTHS', 'UP_TO_SIX_MONTHS', 'MORE_THAN_SIX_MONTHS'] as const),
		workload: jobType === 'HOURLY' ? pick(random, ['UNSPECIFIED', 'LESS_THAN_30_HOURS', 'MORE_THAN_30_HOURS'] as const) : 'UNSPECIFIED',
		contractToHire: chance(random, 0.1),
		applicationCost: pick(random, [2, 4, 6, 8, 10, 12, 14, 16]),
		externalLink: externalLinkOf(uid),
		descriptionLanguage: language,
		questions: chance(random, 0.4) ? pickSome(random, SCREENING_QUESTIONS, intBetween(random, 1, 3)) : [],
		isFeatured: chance(random, 0.1),
		jobScore: Math.round(random() * 100) / 10,
		client: clientOf(random),
		vendor: vendorOf(random),
	};
}

export type DeepPartial<T> = T extends readonly unknown[]
	? T
	: T extends object
		? { [K in keyof T]?: DeepPartial<T[K]> }
		: T;

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mergeDeep<T>(base: T, override: unknown): T {
	if (!isPlainObject(base) || !isPlainObject(override)) return (override === undefined ? base : override) as T;
	const out: Record<string, unknown> = { ...base };
	for (const [key, value] of Object.entries(override)) {
		if (value !== undefined) out[key] = mergeDeep(out[key], value);
	}
	return out as T;
}

/** A budget that fits a job type a script chose without stating a budget. */
function budgetMatching(job: Job): Job['budget'] {
	if (job.jobType === 'HOURLY') {
		return job.budget.hourlyRate.max !== null || job.budget.hourlyRate.min !== null
			? job.budget
			: { fixedBudget: null, hourlyRate: { min: 20, max: 40 } };
	}
	return job.budget.fixedBudget !== null ? job.budget : { fixedBudget: 500, hourlyRate: { min: null, max: null } };
}

/**
 * A scripted posting: what the test states wins, the generator fills the rest, and fields that
 * follow from others (top-level hourlyRate, categoryGroup, externalLink) stay consistent.
 */
export function completeJob(generated: Job, override: DeepPartial<Job>): Job {
	const job = mergeDeep(generated, override);
	if (override.jobType !== undefined && override.budget === undefined) job.budget = budgetMatching(job);
	if (job.jobType === 'FIXED' && override.workload === undefined) job.workload = 'UNSPECIFIED';
	if (override.hourlyRate === undefined) job.hourlyRate = job.budget.hourlyRate.max ?? job.budget.hourlyRate.min ?? 0;
	if (override.category !== undefined && override.categoryGroup === undefined) {
		job.categoryGroup = categoryGroupOf(job.category) ?? job.categoryGroup;
	}
	if (override.uid !== undefined && override.externalLink === undefined) job.externalLink = externalLinkOf(job.uid);
	return job;
}
