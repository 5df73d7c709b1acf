import type { ToolOutcome } from './handlers';

/**
 * Each job's JSON, written once: jobs do not change after they are stored, and a search answer
 * of thousands of jobs is then joined from ready strings instead of serialized again, so even the
 * largest answer holds the server for other accounts only briefly. Keyed weakly by the job object.
 */
const jobJson = new WeakMap<object, string>();

function jsonOfJob(job: object): string {
	let text = jobJson.get(job);
	if (text === undefined) {
		text = JSON.stringify(job);
		jobJson.set(job, text);
	}
	return text;
}

/** The body of a tool outcome as JSON text, the same as JSON.stringify(outcome.body). */
export function outcomeJson(outcome: ToolOutcome): string {
	const body = outcome.body as { data?: { jobs?: unknown; total?: unknown }; usage?: unknown };
	const data = body.data;
	if (outcome.status !== 200 || !data || !Array.isArray(data.jobs) || Object.keys(data).length !== 2 || typeof data.total !== 'number') {
		return JSON.stringify(body);
	}
	const jobs = (data.jobs as object[]).map(jsonOfJob).join(',');
	return `{"data":{"jobs":[${jobs}],"total":${data.total}},"usage":${JSON.stringify(body.usage)}}`;
}
