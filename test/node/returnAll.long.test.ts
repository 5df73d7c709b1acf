import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { HarnessCredentials } from '../harness';

import { PRICE_MICROCENTS } from '../../nodes/JobSearch/service/pricing';
import { createManualClock } from '../../server/clock';
import type { Job } from '../../server/model';
import { startProxy, type Proxy } from '../support/proxy';
import { runJobSearch, search } from './helpers';
import { startTestService, type TestService } from '../support/service';

const START_MS = Date.parse('2026-11-01T12:00:00.000Z');
// A test may hold every wait of the node (Min Interval, backoff) until something has happened.
let sleepGate: (nthSleep: number) => Promise<void> | undefined = () => undefined;
let sleeps = 0;
const mockClock = createManualClock(START_MS);
// The node's waits (Retry-After, backoff) move the server's clock instead of passing in real time.
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async (ms: number) => {
		await sleepGate(++sleeps);
		mockClock.advance(ms);
		await new Promise<void>((resolve) => setImmediate(resolve));
	},
}));

// A page is 10,000 rows, the most one call returns, and the node asks for that much whenever Max
// Credit allows: the walk's rules (a page bounded by toDate on one side, then the next) need three
// pages, so more than 20,000 jobs. 21,000 give a third page of about a thousand; fewer rows would
// prove nothing more, and the page size cannot shrink without changing what is tested.
const JOBS = 21_000;
const JOBS_TEXT = JOBS.toLocaleString('en-US');
// A total of whole thousands may be a search engine's rounded figure: messages say "at least" of it.
const AT_LEAST_JOBS = `at least ${JOBS_TEXT}`;
// Jobs posted in groups sharing one millisecond, so each 10,000-row page ends inside a group.
const TIE_GROUP = 7;
const ROW = PRICE_MICROCENTS.search_jobs;
// The first page ends inside a group: the second re-reads that group's first jobs within its 10,000.
const READ_IN_TWO_PAGES = 20_000 - (10_000 % TIE_GROUP);

/** The service's order: newest createdAt first, ties by uid descending (uids are digit strings). */
function serviceOrder(a: Job, b: Job): number {
	// createdAt is always toISOString's format, so text order is time order (and no Date.parse per comparison).
	if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
	if (a.uid.length !== b.uid.length) return b.uid.length - a.uid.length;
	return a.uid < b.uid ? 1 : -1;
}

async function serviceWithJobs(options: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
	const service = await startTestService({ jobs: 0, clock: mockClock, faults: true, ...options });
	service.server.admin.addJobs(
		Array.from({ length: JOBS }, (_, i) => ({
			createdAt: new Date(START_MS - 60_000 - Math.floor(i / TIE_GROUP) * 20_000).toISOString(),
		})),
	);
	return service;
}

const expectedUids = (service: TestService): string[] =>
	[...service.server.admin.visibleJobs()].sort(serviceOrder).map((job) => job.uid);

// No cap unless a test sets one: the walk's own rules are what most tests here look at.
const returnAll = (options: INodeParameters = {}): INodeParameters =>
	search({ returnAll: true, basicFilters: { searchPeriod: '720' }, options: { maxCreditUsd: 0, ...options } });

let service: TestService;
let proxy: Proxy | undefined;
let betweenPages: (n: number) => void = () => undefined;
let holdAnswer: (body: Record<string, unknown>) => Promise<void> | undefined = () => undefined;

beforeAll(async () => {
	// Pro accounts get a tight rate limit (the rate-limit test below); the other tests use Enterprise.
	service = await serviceWithJobs({ rateLimits: { pro: { requests: 1, windowMs: 30_000 } } });
});
afterAll(async () => await service.server.close());
beforeEach(async () => {
	mockClock.set(START_MS);
	betweenPages = () => undefined;
	holdAnswer = () => undefined;
	sleepGate = () => undefined;
	sleeps = 0;
	proxy = await startProxy(service.server.url, { afterAnswer: (n) => betweenPages(n), holdAnswer: (body) => holdAnswer(body) });
});
afterEach(async () => {
	service.server.admin.clearFaults();
	await proxy?.close();
});

/** An enterprise account whose requests pass the proxy, so a test can act between two pages. */
async function throughProxy(): Promise<{ id: string; credentials: HarnessCredentials }> {
	const { id, credentials } = await service.account('enterprise');
	return { id, credentials: { ...credentials, baseUrl: proxy!.url } };
}

describe('Return All past the 10,000 rows of one call', () => {
	it(`returns every one of ${JOBS_TEXT} matching jobs exactly once, in the service order, with pairedItem, within Max Credit`, async () => {
		const { id, credentials } = await throughProxy();
		const before = service.server.admin.balance(id).totalMicrocents;
		const capUsd = ((JOBS + 3 * TIE_GROUP) * ROW) / 1e8;
		const run = await runJobSearch(returnAll({ maxCreditUsd: capUsd, includeUsage: true }), { credentials });

		expect(run.error).toBeUndefined();
		expect(run.output.map((item) => item.json.uid)).toEqual(expectedUids(service));
		expect(run.output.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
		const spent = before - service.server.admin.balance(id).totalMicrocents;
		// One job to count the matches, then three pages; only the jobs sharing a boundary's
		// millisecond are read (and paid) twice.
		expect(proxy!.bodies.map((body) => body.limit)).toEqual([1, 10_000, 10_000, expect.any(Number)]);
		expect(spent).toBeGreaterThanOrEqual(JOBS * ROW);
		expect(spent).toBeLessThanOrEqual((JOBS + 3 * (TIE_GROUP - 1)) * ROW);
		expect((run.output[0].json.usage as IDataObject).consumedMicrocents).toBe(spent);
		expect(run.output.slice(1).some((item) => item.json.usage !== undefined)).toBe(false);
	});

	it('reads on past a full page whose total a host rounded down to the thousand, returning every one of the jobs once', async () => {
		// A search engine in front of the service reports 1,000 or more matches rounded down to a thousand, at most
		// 10,000: the first full page of 10,000 holds as many jobs as that total, yet more are left.
		const rounding = await startProxy(service.server.url, {
			reshapeAnswer: (answer) => {
				const data = answer.data as { total?: number } | undefined;
				if (data?.total !== undefined && data.total >= 1_000) data.total = Math.min(10_000, Math.floor(data.total / 1_000) * 1_000);
			},
		});
		try {
			const { credentials } = await service.account('enterprise');
			const run = await runJobSearch(returnAll(), { credentials: { ...credentials, baseUrl: rounding.url } });
			expect(run.error).toBeUndefined();
			expect(rounding.bodies[0].limit).toBe(10_000);
			expect(run.output.map((item) => item.json.uid)).toEqual(expectedUids(service));
		} finally {
			await rounding.close();
		}
	});

	it('says how many jobs it had read, not "of" a rounded total they passed, when a 500 stops a walk', async () => {
		const rounding = await startProxy(service.server.url, {
			reshapeAnswer: (answer) => {
				const data = answer.data as { total?: number } | undefined;
				if (data?.total !== undefined && data.total >= 1_000) data.total = Math.min(10_000, Math.floor(data.total / 1_000) * 1_000);
			},
			afterAnswer: (n) => {
				if (n === 2) service.server.admin.injectFault({ kind: '500', tool: 'search_jobs', times: 10 });
			},
		});
		try {
			const { credentials } = await service.account('enterprise');
			const run = await runJobSearch(returnAll({ maxRetries: 1 }), { credentials: { ...credentials, baseUrl: rounding.url } });
			expect(run.error?.description).toContain(`Return All had read ${READ_IN_TWO_PAGES.toLocaleString('en-US')} matching jobs (billed) when this stopped it.`);
		} finally {
			await rounding.close();
		}
	});

	it('asks each further page for the same search up to the oldest createdAt read, for no more rows than are left', async () => {
		const { credentials } = await throughProxy();
		const run = await runJobSearch(returnAll(), { credentials });
		const [first, second, third] = proxy!.bodies;
		expect(first).toEqual(expect.objectContaining({ searchPeriod: '30d', limit: 10_000 }));
		expect(first.toDate).toBeUndefined();
		expect(second).toEqual(expect.objectContaining({ searchPeriod: '30d', toDate: run.output[9_999].json.createdAt, limit: 10_000 }));
		// The second page re-reads the jobs of its boundary millisecond first, so it brings fewer new ones.
		expect(third.toDate).toBe(run.output[READ_IN_TWO_PAGES - 1].json.createdAt);
		// The last page asks for what the second page's total left unread, plus its boundary's ties.
		const tiesAtThird = run.output.slice(0, READ_IN_TWO_PAGES).filter((item) => item.json.createdAt === third.toDate).length;
		expect(third.limit).toBe(JOBS - READ_IN_TWO_PAGES + tiesAtThird);
	});

	it('neither stalls nor repeats a job when jobs are removed from the index mid-walk', async () => {
		const { credentials } = await throughProxy();
		const uids = expectedUids(service);
		const [boundary, unread] = [uids[9_999], uids[15_000]];
		betweenPages = (n) => {
			if (n === 1) service.server.admin.removeJobs([boundary, unread]);
		};
		try {
			const run = await runJobSearch(returnAll(), { credentials });
			expect(run.error).toBeUndefined();
			// The boundary job was already read (and paid); the unread one is gone before its page.
			expect(run.output.map((item) => item.json.uid)).toEqual(uids.filter((uid) => uid !== unread));
		} finally {
			service.server.admin.addJobs(
				[boundary, unread].map((uid) => ({ uid, createdAt: new Date(START_MS - 60_000 - Math.floor(uids.indexOf(uid) / TIE_GROUP) * 20_000).toISOString() })),
			);
		}
	});

	it('reads a job the index shows mid-walk in the part not yet read, the oldest included', async () => {
		const { credentials } = await throughProxy();
		const oldestMs = Date.parse(service.server.admin.visibleJobs().reduce((a, b) => (a.createdAt < b.createdAt ? a : b)).createdAt);
		let late: string[] = [];
		betweenPages = (n) => {
			if (n === 1) {
				const added = service.server.admin.addJobs([
					{ createdAt: new Date(oldestMs - 1).toISOString() },
					{ createdAt: new Date(oldestMs + 5 * 20_000).toISOString() },
				]);
				late = added.map((job) => job.uid);
			}
		};
		try {
			const run = await runJobSearch(returnAll(), { credentials });
			expect(run.error).toBeUndefined();
			const uids = run.output.map((item) => item.json.uid);
			expect(uids).toEqual(expectedUids(service));
			expect(uids.at(-1)).toBe(late[0]);
			expect(uids).toContain(late[1]);
		} finally {
			service.server.admin.removeJobs(late);
		}
	});

	it('retries a 500 in the middle of the walk and still returns every job once', async () => {
		const { credentials } = await throughProxy();
		betweenPages = (n) => {
			if (n === 1) service.server.admin.injectFault({ kind: '500', tool: 'search_jobs' });
		};
		const run = await runJobSearch(returnAll(), { credentials });
		expect(run.error).toBeUndefined();
		expect(proxy!.bodies).toHaveLength(4);
		expect(run.output.map((item) => item.json.uid)).toEqual(expectedUids(service));
	});

	it('fails on a 500 that outlasts the retries mid-walk, saying how many jobs it had read', async () => {
		const { credentials } = await throughProxy();
		betweenPages = (n) => {
			if (n === 1) service.server.admin.injectFault({ kind: '500', tool: 'search_jobs', times: 10 });
		};
		const run = await runJobSearch(returnAll({ maxRetries: 1 }), { credentials });
		expect(run.error?.message).toBe('The service had an internal fault (still failing after 1 retry) [item 0]');
		expect(run.error?.description).toContain(`Return All had read 10,000 of ${AT_LEAST_JOBS} matching jobs (billed)`);
	});

	it('with continue on fail, outputs the jobs read before a 500 that outlasts the retries, then an error item', async () => {
		const { credentials } = await throughProxy();
		betweenPages = (n) => {
			if (n === 1) service.server.admin.injectFault({ kind: '500', tool: 'search_jobs', times: 10 });
		};
		const run = await runJobSearch(returnAll({ maxRetries: 1 }), { credentials, continueOnFail: true });
		expect(run.output).toHaveLength(10_001);
		expect(run.output.slice(0, 10_000).map((item) => item.json.uid)).toEqual(expectedUids(service).slice(0, 10_000));
		const last = run.output[10_000];
		expect(last.json).toEqual(expect.objectContaining({ httpCode: 500 }));
		expect(last.json.description).toContain(`Return All had read 10,000 of ${AT_LEAST_JOBS}`);
		expect(last.pairedItem).toEqual({ item: 0 });
	});

	it('reads one job to count the matches, then stops a walk they would take past Max Credit, naming the worst case ("at least" for a total of whole thousands) and how to raise the cap', async () => {
		const { id, credentials } = await throughProxy();
		const before = service.server.admin.balance(id).totalMicrocents;
		const capUsd = ((20_000 + 3 * TIE_GROUP) * ROW) / 1e8;
		const run = await runJobSearch(returnAll({ maxCreditUsd: capUsd }), { credentials });
		expect(run.error?.message).toBe(
			`Return All stopped: the search matches ${AT_LEAST_JOBS} jobs, at least $121.59, more than the $115.92 Max Credit per Execution has left [item 0]`,
		);
		expect(run.error?.description).toBe(
			'Only its first job was read ($0.00579), to count the matches. Raise "Max Credit per Execution (USD)" in Options to at least $121.60, or $127.38 if that count is rounded down to the thousand (0 removes the cap), narrow the filters, or use a Limit. ' +
				`Return All had read 1 of ${AT_LEAST_JOBS} matching jobs (billed) when this stopped it. ` +
				'With "On Error" set to continue, the node outputs those jobs and then an item with this message.',
		);
		expect(proxy!.bodies.map((body) => body.limit)).toEqual([1]);
		expect(before - service.server.admin.balance(id).totalMicrocents).toBe(ROW);
	});

	it('with continue on fail, outputs the one job read to count the matches, then the credit-cap error item', async () => {
		const { credentials } = await throughProxy();
		const capUsd = ((20_000 + 3 * TIE_GROUP) * ROW) / 1e8;
		const run = await runJobSearch(returnAll({ maxCreditUsd: capUsd }), { credentials, continueOnFail: true });
		expect(run.output).toHaveLength(2);
		expect(run.output[0].json.uid).toBe(expectedUids(service)[0]);
		expect(run.output[1].json).toEqual(expect.objectContaining({ error_code: 'credit_cap_reached' }));
		expect(run.output[1].json.description).toMatch(/ They are the items before this one\.$/);
	});

	it('runs under a Max Credit below one full page when the matches fit: the pages ask only for the rows the cap allows', async () => {
		const { credentials } = await throughProxy();
		const lastHour = [...service.server.admin.visibleJobs()]
			.filter((job) => Date.parse(job.createdAt) >= START_MS - 3_600_000)
			.sort(serviceOrder)
			.map((job) => job.uid);
		const run = await runJobSearch(search({ returnAll: true, basicFilters: { searchPeriod: '1' }, options: { maxCreditUsd: (2_000 * ROW) / 1e8 } }), {
			credentials,
		});
		expect(run.error).toBeUndefined();
		expect(proxy!.bodies.map((body) => body.limit)).toEqual([1, lastHour.length]);
		expect(run.output.map((item) => item.json.uid)).toEqual(lastHour);
	});

	it('stops after the first job when the cap allows fewer rows than match, saying how many match', async () => {
		const { credentials } = await throughProxy();
		const run = await runJobSearch(search({ returnAll: true, basicFilters: { searchPeriod: '1' }, options: { maxCreditUsd: (100 * ROW) / 1e8 } }), {
			credentials,
		});
		expect(proxy!.bodies.map((body) => body.limit)).toEqual([1]);
		// An exact count says so: no "at least", and the cost "up to" what it would be.
		expect(run.error?.message).toMatch(/^Return All stopped: the search matches 1,2\d\d jobs, up to \$/);
		expect(run.error?.description).toMatch(/Return All had read 1 of 1,2\d\d matching jobs/);
		expect(run.error?.description).not.toContain('rounded');
	});

	it('with continue on fail and the whole response as one item, says the jobs read are in the item before the error item', async () => {
		const { credentials } = await throughProxy();
		const capUsd = ((20_000 + 3 * TIE_GROUP) * ROW) / 1e8;
		const run = await runJobSearch(returnAll({ maxCreditUsd: capUsd, output: 'wholeResponse' }), { credentials, continueOnFail: true });
		expect(run.output).toHaveLength(2);
		expect((run.output[0].json.jobs as IDataObject[]).map((job) => job.uid)).toEqual(expectedUids(service).slice(0, 1));
		expect(run.output[1].json.description).toMatch(/ They are in the "jobs" list of the item before this one\.$/);
	});
});

describe('Return All beside other items', () => {
	// A key the service does not know: it refuses the search (400), which fails the execution.
	const REFUSED = { 'no.such.filter': '1' };
	const isRefused = (body: Record<string, unknown>): boolean => 'no.such.filter' in body;
	const isWalk = (body: Record<string, unknown>): boolean => !isRefused(body) && body['includeKeywords.keywords'] === undefined;

	/**
	 * Three items at concurrency 3, no cap: item 0 walks, item 1 is a search the service refuses,
	 * which fails the execution, and item 2 is a search that matches nothing.
	 */
	const walkBesideFailingItem = async (credentials: HarnessCredentials, options: INodeParameters = {}) =>
		await runJobSearch(
			search({
				returnAll: '={{ $json.all }}',
				limit: 10,
				basicFilters: { searchPeriod: '720' },
				keywordFilters: { includeKeywordsKeywords: '={{ $json.keyword }}' },
				options: { maxCreditUsd: 0, concurrency: 3, additionalFilters: '={{ $json.extra }}', ...options },
			}),
			{
				credentials,
				input: [
					{ all: true, keyword: '', extra: '{}' },
					{ all: false, keyword: '', extra: JSON.stringify(REFUSED) },
					{ all: false, keyword: 'matchesnothingatall', extra: '{}' },
				],
			},
		);

	/** Resolves once the refused search's answer has reached the node and some turns of its event loop have passed. */
	const afterRefusalAnswered = (): { seen: Promise<void>; watch: (body: Record<string, unknown>) => void } => {
		let resolve!: () => void;
		const seen = new Promise<void>((r) => (resolve = r));
		return {
			seen,
			watch: (body) => {
				if (!isRefused(body)) return;
				void (async () => {
					for (let turn = 0; turn < 50; turn++) await new Promise<void>((r) => setImmediate(r));
					resolve();
				})();
			},
		};
	};

	it('sends no further request once another item has failed the execution: a walk buys no further page', async () => {
		const { id, credentials } = await throughProxy();
		const before = service.server.admin.balance(id).totalMicrocents;
		const refusal = afterRefusalAnswered();
		// The walk's first page is answered only after the refusal has failed the execution.
		holdAnswer = (body) => {
			refusal.watch(body);
			return isWalk(body) && body.toDate === undefined ? refusal.seen : undefined;
		};
		const run = await walkBesideFailingItem(credentials);
		expect(run.error?.message).toMatch(/no\.such\.filter/);
		expect(proxy!.bodies).toHaveLength(3);
		expect(proxy!.bodies.some((body) => body.toDate !== undefined)).toBe(false);
		expect(before - service.server.admin.balance(id).totalMicrocents).toBeLessThanOrEqual(10_000 * ROW);
	});

	it('does not send a request that was waiting for its Min Interval slot when another item failed the execution', async () => {
		const { credentials } = await throughProxy();
		const refusal = afterRefusalAnswered();
		holdAnswer = (body) => void refusal.watch(body);
		// Items 1 and 2 wait out Min Interval behind item 0 in turn; item 2's wait (the second)
		// ends only once item 1's refusal has failed the execution.
		sleepGate = (nthSleep) => (nthSleep >= 2 ? refusal.seen : undefined);
		const run = await walkBesideFailingItem(credentials, { minIntervalMs: 1_000, concurrency: 3 });
		expect(run.error?.message).toMatch(/no\.such\.filter/);
		expect(proxy!.bodies.some((body) => body['includeKeywords.keywords'] !== undefined)).toBe(false);
	});

	it('fails clearly, rather than reading in tiny pages, when two walks at once do not fit under the cap', async () => {
		const { credentials } = await throughProxy();
		const capUsd = ((10_000 + 1) * ROW) / 1e8;
		const run = await runJobSearch(returnAll({ maxCreditUsd: capUsd, concurrency: 2 }), { credentials, input: [{}, {}] });
		expect(run.error?.message).toMatch(/^Return All stopped: the search matches at least 21,000 jobs, at least \$121\.59, .* \[item \d\]$/);
		// Each walk read at most the one job that counts the matches; no page was small.
		expect(proxy!.bodies.length).toBeLessThanOrEqual(2);
		expect(proxy!.bodies.every((body) => body.limit === 1)).toBe(true);
	});
});

describe('Return All under a rate limit', () => {
	it('waits out a 429 between pages, as long as it asks on the injected clock, and still returns every job once', async () => {
		// One request per 30 s for Pro keys on this server.
		const { credentials } = await service.account('pro', { poolMicrocents: 500 * 1e8 });
		const run = await runJobSearch(returnAll(), { credentials });
		expect(run.error).toBeUndefined();
		expect(run.output.map((item) => item.json.uid)).toEqual(expectedUids(service));
		// Two pages were refused once each and waited what the 429 asked (the rest of a 30 s window).
		expect(mockClock.now() - START_MS).toBeGreaterThanOrEqual(2 * 30_000 - 2_000);
		expect(mockClock.now() - START_MS).toBeLessThan(3 * 30_000);
	});
});
