import type { IDataObject } from 'n8n-workflow';

function obj(value: unknown): IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as IDataObject) : {};
}

function defined(record: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

/**
 * A flat, readable subset of a job for the next node (a Slack message, a sheet row, an AI
 * summary): the fields a person reads to decide whether to apply, the full description included.
 * Simplify off gives the whole record instead.
 */
export function simplifyJob(job: IDataObject): IDataObject {
	const budget = obj(job.budget);
	const hourly = obj(budget.hourlyRate);
	const client = obj(job.client);
	const stats = obj(client.stats);
	const vendor = obj(job.vendor);
	return defined({
		uid: job.uid,
		title: job.title,
		url: job.externalLink,
		description: job.description,
		createdAt: job.createdAt,
		jobType: job.jobType,
		hourlyRate: job.hourlyRate,
		hourlyRateMin: hourly.min ?? undefined,
		hourlyRateMax: hourly.max ?? undefined,
		fixedBudget: budget.fixedBudget ?? undefined,
		category: job.category,
		categoryGroup: job.categoryGroup,
		skills: job.skills,
		experienceLevel: vendor.experienceLevel,
		applicationCost: job.applicationCost,
		clientCountry: client.countryCode,
		clientTotalSpent: stats.totalSpent,
		clientHireRate: stats.hireRate ?? undefined,
		clientFeedback: stats.feedbackRate ?? undefined,
		clientPaymentVerified: client.paymentMethodVerified,
		isFeatured: job.isFeatured,
	});
}
