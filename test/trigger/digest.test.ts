import { recordingSleep, waitsMoveDate } from '../support/sleeps';

// Every wait the trigger asks for (its request pacing) moves the faked Date on instead of passing
// in real time; the reference server reads the same clock.
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import type { IDataObject } from 'n8n-workflow';

import { DIGEST_TEXT_MAX_CHARS, digestText } from '../../nodes/JobSearch/output/digest';
import { DAY_START, FAKE_DATE_ONLY, MINUTE, startHarnessed, type Harnessed, type TimeControl } from './scriptedDay';

// The trigger's Output option (one item per job, or one digest per poll) and what "Fetch Test
// Event" says when nothing matches, in real n8n-core's PollContext against the reference server.

const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };
const TELEGRAM_MAX_CHARS = 4096;
/** What n8n's own polling triggers (Google Calendar, Google Drive) say when a test finds nothing. */
const NO_DATA_MESSAGE = 'No data with the current filter could be found';

beforeAll(() => {
	jest.useFakeTimers(FAKE_DATE_ONLY);
	waitsMoveDate();
});
afterAll(() => jest.useRealTimers());

let h: Harnessed;
afterEach(async () => h && (await h.server.close()));

/** A poll that finds `count` new jobs, posted 15 s apart before activation, with long titles. */
async function pollOfNewJobs(count: number, options: IDataObject) {
	h = await startHarnessed(time, DAY_START, { options: { firstPollHours: 2, ...options } }, { jobs: 0 });
	const added = h.server.admin.addJobs(
		Array.from({ length: count }, (_, i) => ({
			createdAt: new Date(DAY_START - MINUTE - i * 15_000).toISOString(),
			title: `Senior full-stack developer for a long-running marketplace project, job number ${i} of a busy day`,
		})),
	);
	return { added, outcome: await h.poller.poll() };
}

describe('One Item per Poll', () => {
	it(`sends a poll of 200 new jobs as one item whose text stays under ${TELEGRAM_MAX_CHARS} characters and ends in "and N more"`, async () => {
		const { added, outcome } = await pollOfNewJobs(200, { output: 'perPoll' });
		expect(outcome.error).toBeUndefined();
		expect(outcome.items).toHaveLength(1);
		const { count, jobs, text } = outcome.items[0].json as { count: number; jobs: IDataObject[]; text: string };
		expect(count).toBe(200);
		expect(jobs.map((j) => j.uid)).toEqual(added.map((j) => j.uid)); // added newest first
		expect(text.length).toBeLessThanOrEqual(DIGEST_TEXT_MAX_CHARS);
		expect(text.length).toBeLessThan(TELEGRAM_MAX_CHARS);
		const shown = added.filter((job) => text.includes(job.externalLink));
		expect(shown.length).toBeGreaterThan(5);
		expect(shown).toEqual(added.slice(0, shown.length));
		expect(text).toMatch(new RegExp(`\\n\\nand ${200 - shown.length} more$`));
		expect(text.startsWith('200 new jobs\n\n• Senior full-stack developer')).toBe(true);
	});

	it('lists each job whole (title, budget, link) and says no "more" when all fit', async () => {
		const { added, outcome } = await pollOfNewJobs(3, { output: 'perPoll', includeUsage: true });
		const { count, jobs, text, usage } = outcome.items[0].json as { count: number; jobs: IDataObject[]; text: string; usage: IDataObject };
		expect(count).toBe(3);
		expect(jobs.map((j) => Object.keys(j))).toEqual(added.map(() => expect.arrayContaining(['uid', 'title', 'url'])));
		expect(jobs.some((j) => 'usage' in j)).toBe(false);
		expect(usage).toEqual(expect.objectContaining({ consumedMicrocents: expect.any(Number) }));
		for (const job of added) expect(text).toContain(`${job.title} (`);
		expect(text).toMatch(/\(\$[\d.]+(-\$[\d.]+)?\/h\)|\(\$[\d.]+ fixed\)/);
		expect(text.split('\n').at(-1)).toBe(added[2].externalLink);
		expect(text).not.toMatch(/more$/);
	});

	it('keeps one item per job by default', async () => {
		const { added, outcome } = await pollOfNewJobs(4, {});
		expect(outcome.items.map((i) => i.json.uid)).toEqual(added.map((j) => j.uid));
	});

	it('cuts a text of many jobs between entries, never inside one', () => {
		const jobs = Array.from({ length: 500 }, (_, i) => ({
			title: `Job ${i} ${'x'.repeat(i % 300)}`,
			jobType: 'FIXED',
			budget: { fixedBudget: 500 },
			externalLink: `https://www.upwork.com/jobs/~02${1955020056847176693n + BigInt(i)}`,
		}));
		const text = digestText(jobs);
		expect(text.length).toBeLessThanOrEqual(DIGEST_TEXT_MAX_CHARS);
		const entries = text.split('\n\n').slice(1, -1);
		expect(entries.every((e, i) => e.startsWith(`• Job ${i} `) && e.endsWith(jobs[i].externalLink))).toBe(true);
		expect(text.endsWith(`and ${500 - entries.length} more`)).toBe(true);
	});
});

describe('the digest text at its limit', () => {
	/** Telegram's 4,096 less room for a line before it; written out so that a change to DIGEST_TEXT_MAX_CHARS is seen. */
	const LIMIT = 4_000;
	/** Entries end by here: the rest is kept for the longest "and N more" there can be. */
	const ENTRIES_END_BY = LIMIT - '\n\nand 1,000,000 more'.length;
	const link = (i: number) => `https://www.upwork.com/jobs/~02${1955020056847176693n + BigInt(i)}`;
	const job = (title: string, i: number): IDataObject => ({ title, externalLink: link(i) });
	/** "\n\n• <title>\n<link>": what an entry without a budget adds to the text. */
	const added = (title: string) => 2 + 2 + title.length + 1 + link(0).length;

	/** Jobs whose entries end exactly at `end`, then `after` more. */
	function endingAt(end: number, after: number): { jobs: IDataObject[]; lastShown: number } {
		const total = (count: number) => count + after;
		const jobs: IDataObject[] = [];
		const filler = 'x'.repeat(100);
		let length = 0;
		// Filled with whole entries until two more make up the rest.
		for (;;) {
			length = `${total(jobs.length + 2).toLocaleString('en-US')} new jobs`.length + jobs.reduce((sum, j) => sum + added(String(j.title)), 0);
			if (end - length <= 2 * added('x'.repeat(120))) break;
			jobs.push(job(filler, jobs.length));
		}
		const rest = end - length - 2 * added('');
		const a = Math.floor(rest / 2);
		jobs.push(job('y'.repeat(a), jobs.length), job('z'.repeat(rest - a), jobs.length + 1));
		const lastShown = jobs.length - 1;
		for (let i = 0; i < after; i++) jobs.push(job(`after ${i}`, jobs.length));
		return { jobs, lastShown };
	}

	it('keeps an entry that ends exactly where entries must end, with "and N more" after it', () => {
		const { jobs, lastShown } = endingAt(ENTRIES_END_BY, 1);
		const text = digestText(jobs);
		expect(text).toBe(`${text.slice(0, ENTRIES_END_BY)}\n\nand 1 more`);
		expect(text.slice(0, ENTRIES_END_BY).endsWith(link(lastShown))).toBe(true);
		expect(text.length).toBeLessThanOrEqual(LIMIT);
	});

	it('leaves out an entry that would end one character past that, and counts it in "and N more"', () => {
		const { jobs, lastShown } = endingAt(ENTRIES_END_BY + 1, 1);
		const text = digestText(jobs);
		expect(text).not.toContain(link(lastShown));
		expect(text.endsWith(`${link(lastShown - 1)}\n\nand 2 more`)).toBe(true);
	});

	it(`never passes ${LIMIT} characters, whatever the titles and however many more there are`, () => {
		for (const count of [100, 1_000, 10_000, 100_000]) {
			for (let length = 1; length <= 120; length++) {
				const text = digestText(new Array<IDataObject>(count).fill(job('t'.repeat(length), 0)));
				expect(text.length).toBeLessThanOrEqual(LIMIT);
				expect(text).toMatch(/\n\nand [\d,]+ more$/);
			}
		}
	});
});

describe('Fetch Test Event with no matching job', () => {
	it("fails as n8n's own polling triggers do, naming the filters to loosen, and changes no state", async () => {
		h = await startHarnessed(
			time,
			DAY_START,
			{
				keywordFilters: { includeKeywordsKeywords: 'zzqxv-nothing-matches' },
				clientFilters: { clientPaymentMethodVerified: true },
			},
			{ jobs: 300 },
		);
		const outcome = await h.poller.poll('manual');
		expect(outcome.error?.message).toBe(NO_DATA_MESSAGE);
		const description = (outcome.error as { description?: string }).description ?? '';
		expect(description).toMatch(/^No recent job matches all of these filters: Include Keywords, Payment Method Verified\. /);
		expect(description).toMatch(/Loosen or remove one of them/);
		expect(h.poller.staticData()).toEqual({});
	});

	it('with several searches, names each search and its filters', async () => {
		const search = (name: string, keyword: string) => ({ name, keywordFilters: { includeKeywordsKeywords: keyword } });
		h = await startHarnessed(
			time,
			DAY_START,
			{ watch: 'severalSearches', searches: { search: [search('Rust', 'zzqxv-rust'), search('Go', 'zzqxv-go'), { ...search('Golang', 'zzqxv-go') }] } },
			{ jobs: 300 },
		);
		const outcome = await h.poller.poll('manual');
		expect(outcome.error?.message).toBe(NO_DATA_MESSAGE);
		expect((outcome.error as { description?: string }).description).toMatch(
			/^No recent job matches any search: "Rust" \(Include Keywords\); "Go", "Golang" \(Include Keywords\)\. Loosen or remove one of them/,
		);
	});

	it("says so in n8n's words, and that the service holds no recent job at all, when no filter is set", async () => {
		h = await startHarnessed(time, DAY_START, {}, { jobs: 0 });
		const outcome = await h.poller.poll('manual');
		expect(outcome.error?.message).toBe(NO_DATA_MESSAGE);
		expect((outcome.error as { description?: string }).description).toBe('The service holds no recent job at all right now. Try again in a few minutes.');
		expect(h.poller.staticData()).toEqual({});
	});
});
