import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import axios from 'axios';

import { startServer } from '../server';

/**
 * What an AI model reads per job, measured side by side in one run against one reference server,
 * for the same search (the newest 20 jobs of the last 7 days) and the same Get Job:
 * - the raw service response body (what any HTTP client receives);
 * - n8n's HTTP Request node used as a tool: it turns the JSON body into one item, and n8n hands
 *   the model the items as a JSON array, so this is the parsed body stringified inside [ ];
 * - the Job Search node as a tool with Output Raw (the jobs as the service sends them);
 * - the Job Search node as a tool by default (the compact job, description cut, with its link).
 * A search's answer is one item, its total, jobs and note counted too (the note says the limit cut
 * the rows here), so "per job" is the whole answer over the 20 jobs.
 * The reference server writes descriptions of about 190 to 320 characters; real postings are
 * often much longer, and the compact job cuts them, so real savings are larger than shown here.
 */
export default async function toolOutputBench(): Promise<void> {
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-job-search-bench-'));
	const { callAsTool, fromAi } = await import('../test/node/toolHarness');
	const { TOOL_DESCRIPTION_CHARS } = await import('../nodes/JobSearch/output');
	const server = await startServer({ jobs: 2000, seed: 1 });
	try {
		const { key } = await server.admin.createAccount({ plan: 'enterprise', poolMicrocents: 100 * 100_000_000 });
		const credentials = { apiKey: key, baseUrl: server.url };
		const rows = 20;
		const searchBody = { searchPeriod: '7d', limit: rows };

		const raw = async (tool: string, body: object): Promise<string> => {
			const response = await axios.post<string>(`${server.url}/v1/${tool}`, body, {
				headers: { Authorization: `Bearer ${key}` },
				responseType: 'text',
				transformResponse: (text: string) => text,
			});
			return response.data;
		};
		const httpRequestTool = (body: string) => JSON.stringify([JSON.parse(body)]);

		const search = { resource: 'job', operation: 'search', limit: fromAi('limit', 'number'), basicFilters: { searchPeriod: '168' } };
		const rawSearch = await raw('search_jobs', searchBody);
		const jobs = (JSON.parse(rawSearch) as { data: { jobs: unknown[] } }).data.jobs.length;
		const fullTool = await callAsTool({ ...search, toolOutput: 'raw' }, { limit: rows }, credentials);
		const compactTool = await callAsTool(search, { limit: rows }, credentials);
		if (jobs !== rows || fullTool.jobs.length !== rows || compactTool.jobs.length !== rows) throw new Error('the runs returned different jobs');

		const uid = compactTool.jobs[0].uid as string;
		const rawGet = await raw('get_job', { jobUid: uid });
		const get = { resource: 'job', operation: 'get', jobUid: fromAi('uid', 'string') };
		const getFullTool = await callAsTool({ ...get, toolOutput: 'raw' }, { uid }, credentials);
		const getTool = await callAsTool(get, { uid }, credentials);

		const perJob = (text: string, count: number) => Math.round(text.length / count);
		const lines: Array<[string, number, number]> = [
			['raw service response body', perJob(rawSearch, rows), rawGet.length],
			["n8n's HTTP Request tool (the body as one item)", perJob(httpRequestTool(rawSearch), rows), httpRequestTool(rawGet).length],
			['Job Search tool, Output Raw', perJob(fullTool.answer, rows), getFullTool.answer.length],
			['Job Search tool, default (compact job)', perJob(compactTool.answer, rows), getTool.answer.length],
		];
		const base = lines[0][1];
		console.log(`Characters a model reads, one run, same server: a search of ${rows} jobs (per job) and one Get Job`);
		console.log(`${'output'.padEnd(48)}${'search, per job'.padStart(16)}${'vs raw'.padStart(8)}${'Get Job'.padStart(10)}`);
		for (const [name, search, get] of lines) {
			console.log(`${name.padEnd(48)}${String(search).padStart(16)}${`${(search / base).toFixed(3)}x`.padStart(8)}${String(get).padStart(10)}`);
		}
		console.log(
			`(descriptions here are 190-320 characters; the compact job cuts them at ${TOOL_DESCRIPTION_CHARS}, Get Job gives them whole; Get Job as a tool answers with the simplified details)`,
		);
	} finally {
		await server.close();
	}
}
