import { recordingSleep } from '../support/sleeps';

// Backoffs are recorded, not waited out.
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import type { IDataObject } from 'n8n-workflow';

import { PRICE_MICROCENTS } from '../../nodes/JobSearch/service/pricing';
import { hintsOf, runJobSearch, search } from './helpers';
import { answer, startScriptedHost, type ScriptedHost, type SeenRequest } from '../support/hosts';

const KEY = 'gm_aHostThatIgnoresToDateNeverSeesThis';
const NEWEST_MS = Date.parse('2026-11-01T12:00:00.000Z');
const MATCHES = 600_000;
const PAGE = 10_000;

/** Jobs one second apart, newest first: uid `n` is the n-th newest. */
const jobAt = (n: number): IDataObject => ({ uid: String(1_000_000 + n), title: `Job ${n}`, createdAt: new Date(NEWEST_MS - n * 1000).toISOString() });
const newestJobs = (count: number): IDataObject[] => Array.from({ length: count }, (_, n) => jobAt(n));

const bodyOf = (request: SeenRequest): IDataObject => JSON.parse(request.body) as IDataObject;

/** An envelope billing every row, as the service does. */
function page(jobs: IDataObject[], spentSoFar: number): IDataObject {
	const consumed = jobs.length * PRICE_MICROCENTS.search_jobs;
	return { data: { jobs, total: MATCHES }, usage: { consumedMicrocents: consumed, remainingMicrocents: 10 ** 12 - spentSoFar - consumed } };
}

let host: ScriptedHost | undefined;
afterEach(async () => {
	await host?.close();
	host = undefined;
});

/** Where the account runs dry, as in the measurement on main (there after 60 pages): a walk that does not stop ends here. */
const PAGES_UNTIL_EMPTY = 6;

/** A host that bills `limit` rows of whatever `rows` gives for the request, whatever its toDate. */
async function hostAnswering(rows: (body: IDataObject, index: number) => IDataObject[]): Promise<ScriptedHost> {
	let spent = 0;
	host = await startScriptedHost((request, res, index) => {
		if (index >= PAGES_UNTIL_EMPTY) return answer(res, 402, { error: 'Out of credit', error_code: 'insufficient_credits' });
		const jobs = rows(bodyOf(request), index);
		answer(res, 200, page(jobs, spent));
		spent += jobs.length * PRICE_MICROCENTS.search_jobs;
	});
	return host;
}

// No cap: the walk's own guard against such a host is what is tested.
const returnAll = (extra: IDataObject = {}) => search({ returnAll: true, simplify: false, options: { maxCreditUsd: 0 }, ...extra });

describe('Return All against a host that ignores the time bound', () => {
	it('stops after one page beyond the first when the host answers every page with the same newest jobs', async () => {
		const { url, requests } = await hostAnswering((body) => newestJobs(Number(body.limit)));
		const { error, output } = await runJobSearch(returnAll(), { credentials: { apiKey: KEY, baseUrl: url } });

		expect(requests()).toHaveLength(2);
		expect(bodyOf(requests()[1]).toDate).toBe(jobAt(PAGE - 1).createdAt);
		expect(output).toEqual([]);
		expect(error?.message).toBe(
			`Return All stopped: the host ignored the time bound of the search (toDate): asked for jobs created up to ${String(jobAt(PAGE - 1).createdAt)}, it answered with jobs created up to ${String(jobAt(0).createdAt)} [item 0]`,
		);
		expect(error?.description).toContain('Return All had read 10,000 of at least 600,000 matching jobs (billed) when this stopped it.');
		expect(error?.description).toContain('Base URL in the credential');
		expect(error?.description).not.toContain(KEY);
	});

	it('outputs the jobs it paid for once each, then an error item naming the cause, with On Error set to continue', async () => {
		const { url, requests } = await hostAnswering((body) => newestJobs(Number(body.limit)));
		const { error, output } = await runJobSearch(returnAll({ options: { includeUsage: true, maxCreditUsd: 0 } }), {
			credentials: { apiKey: KEY, baseUrl: url },
			continueOnFail: true,
		});

		expect(error).toBeUndefined();
		expect(requests()).toHaveLength(2);
		expect(output).toHaveLength(PAGE + 1);
		expect(new Set(output.slice(0, PAGE).map((item) => item.json.uid)).size).toBe(PAGE);
		// Both pages were billed, and the usage says so.
		expect((output[0].json.usage as IDataObject).consumedMicrocents).toBe(2 * PAGE * PRICE_MICROCENTS.search_jobs);
		const last = output[PAGE].json;
		expect(last.error).toContain('the host ignored the time bound of the search (toDate)');
		expect(last.error_code).toBe('invalid_response');
		expect(last.description).toContain('Return All had read 10,000 of at least 600,000 matching jobs (billed)');
	});

	it('stops on a page within the time bound that brings no job it had not read', async () => {
		// Honours toDate, but answers a further page with its boundary job over and over.
		const { url, requests } = await hostAnswering((body, index) =>
			index === 0 ? newestJobs(Number(body.limit)) : Array.from({ length: Number(body.limit) }, () => jobAt(PAGE - 1)),
		);
		const { error } = await runJobSearch(returnAll(), { credentials: { apiKey: KEY, baseUrl: url } });

		expect(requests()).toHaveLength(2);
		expect(error?.message).toBe(
			`Return All stopped: the host ignored the time bound of the search (toDate): asked for jobs created up to ${String(jobAt(PAGE - 1).createdAt)}, it answered with no job that was not read already [item 0]`,
		);
		expect(error?.description).toContain('Return All had read 10,000 of at least 600,000 matching jobs (billed)');
	});
});

describe('Return All against a host whose pages leave out a job their total counts', () => {
	it('ends the walk on a page shorter than asked that brings no job it had not read, and says how many the total counted beyond them', async () => {
		// A replica behind: job 3 is counted in every total but left out of every page.
		host = await startScriptedHost((request, res, index) => {
			const jobs = index === 0 ? newestJobs(3) : [jobAt(2)];
			const consumed = jobs.length * PRICE_MICROCENTS.search_jobs;
			answer(res, 200, { data: { jobs, total: index === 0 ? 4 : 2 }, usage: { consumedMicrocents: consumed, remainingMicrocents: 10 ** 9 } });
		});
		const run = await runJobSearch(returnAll(), { credentials: { apiKey: KEY, baseUrl: host.url } });

		expect(run.error).toBeUndefined();
		expect(host.requests()).toHaveLength(2);
		expect(run.output.map((item) => item.json.uid)).toEqual(newestJobs(3).map((job) => job.uid));
		expect(hintsOf(run).map((hint) => hint.message)).toEqual([
			`The search counted 1 more matching jobs up to ${String(jobAt(2).createdAt)} than its pages returned (a replica behind?); they were not read [item 0]`,
		]);
	});
});
