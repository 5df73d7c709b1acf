/**
 * Record shapes of the reference server. The spec binds only uid, title, hourlyRate and
 * createdAt; the rest follows the upstream names of docs/service.md#job-record and is documented in the
 * README ("Response fields"). Every field a search filter reads exists here.
 */

import type { PlanName } from '../nodes/JobSearch/service/plans';

export type Plan = PlanName;

export interface Job {
	/** A string of digits. */
	uid: string;
	title: string;
	/** USD per hour: the top of the offered range for hourly jobs, 0 for fixed-price jobs. */
	hourlyRate: number;
	/** ISO 8601 UTC with milliseconds. */
	createdAt: string;
	description: string;
	skills: string[];
	/** Subcategory name, e.g. "Web Development". */
	category: string;
	/** Category group, e.g. "Web, Mobile & Software Dev". */
	categoryGroup: string;
	jobType: 'HOURLY' | 'FIXED';
	budget: {
		fixedBudget: number | null;
		hourlyRate: { min: number | null; max: number | null };
	};
	/** budget.jobDurations wire value. */
	duration: 'UNSPECIFIED' | 'UP_TO_ONE_MONTH' | 'UP_TO_THREE_MONTHS' | 'UP_TO_SIX_MONTHS' | 'MORE_THAN_SIX_MONTHS';
	/** budget.hourlyWorkloads wire value. */
	workload: 'UNSPECIFIED' | 'LESS_THAN_30_HOURS' | 'MORE_THAN_30_HOURS';
	contractToHire: boolean;
	/** Connects needed to apply. */
	applicationCost: number;
	externalLink: string;
	/** ISO 639-1 code of the description's language. */
	descriptionLanguage: string;
	questions: string[];
	isFeatured: boolean;
	/** The service's own quality score, 0 to 10. */
	jobScore: number;
	client: {
		countryCode: string;
		timezone: string;
		industry: string;
		/** client.companySizeRange wire value. */
		companySize: string;
		paymentMethodVerified: boolean;
		phoneNumberVerified: boolean;
		stats: {
			totalSpent: number;
			totalHires: number;
			/** Percent, 0 to 100, or null when the client never posted before. */
			hireRate: number | null;
			/** Average feedback score 0 to 5, or null without feedback. */
			feedbackRate: number | null;
			feedbackCount: number;
			/** Average hourly rate paid in USD, or null when never paid hourly. */
			avgHourlyRatePaid: number | null;
		};
	};
	vendor: {
		experienceLevel: 'ENTRY_LEVEL' | 'INTERMEDIATE' | 'EXPERT';
		type: 'UNSPECIFIED' | 'INDEPENDENT' | 'AGENCY';
		languages: string[];
		englishProficiency: string;
		/** Countries the job is restricted to; empty when it states no preference. */
		countries: string[];
	};
}
