import type { IDataObject } from 'n8n-workflow';

import { obj } from './objects';

function usd(value: unknown): string | undefined {
	return typeof value === 'number' ? `$${Number.isInteger(value) ? value : value.toFixed(2)}` : undefined;
}

/**
 * "$25-$50/h", "$40/h", "$500 fixed": what a job pays, as one short string instead of four
 * numeric fields that are null half the time. Undefined when the job says nothing.
 */
export function budgetOf(job: IDataObject): string | undefined {
	const budget = obj(job.budget);
	if (job.jobType === 'FIXED') return usd(budget.fixedBudget) && `${usd(budget.fixedBudget)} fixed`;
	const hourly = obj(budget.hourlyRate);
	// 0 is how the service writes "no rate" at the top level, not a rate of $0.
	const topRate = typeof job.hourlyRate === 'number' && job.hourlyRate > 0 ? job.hourlyRate : undefined;
	const [min, max] = [usd(hourly.min), usd(hourly.max) ?? usd(topRate)];
	if (!min && !max) return undefined;
	return min && max && min !== max ? `${min}-${max}/h` : `${max ?? min}/h`;
}
