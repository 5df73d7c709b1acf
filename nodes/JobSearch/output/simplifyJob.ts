import type { IDataObject } from 'n8n-workflow';

import { obj } from './objects';

/**
 * Every key of `shape`, with null where the job has no value: each item has the same columns, so
 * a sheet row or a downstream mapping does not shift from one job to the next.
 */
function complete(shape: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, value ?? null]));
}

/** The job's hourly rate, or null for a fixed-price job (the service reports 0 there). */
function hourlyRateOf(job: IDataObject): IDataObject[string] {
	return job.jobType === 'FIXED' ? null : job.hourlyRate;
}

/**
 * A flat, readable subset of a job for the next node (a Slack message, a sheet row, an AI
 * summary): the fields a person reads to decide whether to apply, the full description included.
 * Always the same keys, null where the job has no value. Simplify off gives the whole record.
 */
export function simplifyJob(job: IDataObject): IDataObject {
	const budget = obj(job.budget);
	const hourly = obj(budget.hourlyRate);
	const client = obj(job.client);
	const stats = obj(client.stats);
	const vendor = obj(job.vendor);
	return complete({
		uid: job.uid,
		title: job.title,
		url: job.externalLink,
		description: job.description,
		createdAt: job.createdAt,
		jobType: job.jobType,
		hourlyRate: hourlyRateOf(job),
		hourlyRateMin: hourly.min,
		hourlyRateMax: hourly.max,
		fixedBudget: budget.fixedBudget,
		category: job.category,
		categoryGroup: job.categoryGroup,
		skills: job.skills,
		experienceLevel: vendor.experienceLevel,
		applicationCost: job.applicationCost,
		clientCountry: client.countryCode,
		clientTotalSpent: stats.totalSpent,
		clientHireRate: stats.hireRate,
		clientFeedback: stats.feedbackRate,
		clientPaymentVerified: client.paymentMethodVerified,
		isFeatured: job.isFeatured,
	});
}

/**
 * Get Job's simplified output: the search row's fields plus everything a search row leaves out
 * (screening questions, duration and workload, the client's profile and full stats, what the job
 * asks of a freelancer), so a $0.0195 lookup always adds something. Same keys for every job.
 */
export function simplifyJobDetails(job: IDataObject): IDataObject {
	const client = obj(job.client);
	const stats = obj(client.stats);
	const vendor = obj(job.vendor);
	return {
		...simplifyJob(job),
		...complete({
			questions: job.questions,
			duration: job.duration,
			workload: job.workload,
			contractToHire: job.contractToHire,
			descriptionLanguage: job.descriptionLanguage,
			jobScore: job.jobScore,
			clientTimezone: client.timezone,
			clientIndustry: client.industry,
			clientCompanySize: client.companySize,
			clientPhoneVerified: client.phoneNumberVerified,
			clientTotalHires: stats.totalHires,
			clientFeedbackCount: stats.feedbackCount,
			clientAvgHourlyRatePaid: stats.avgHourlyRatePaid,
			freelancerType: vendor.type,
			freelancerLanguages: vendor.languages,
			englishProficiency: vendor.englishProficiency,
			freelancerCountries: vendor.countries,
		}),
	};
}
