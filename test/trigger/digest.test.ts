import type { IDataObject } from 'n8n-workflow';

import { DIGEST_TEXT_MAX_CHARS, digestText } from '../../nodes/JobSearch/trigger/digest';
import { NO_DATA_MESSAGE } from '../../nodes/JobSearch/trigger/noMatch';
import { DAY_START, FAKE_DATE_ONLY, MINUTE, startHarnessed, type Harnessed, type TimeControl } from './scriptedDay';

// The trigger's Output option (one item per job, or one digest per poll) and what "Fetch Test
// Event" says when nothing matches, in real n8n-core's PollContext against the reference server.

const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };
const TELEGRAM_MAX_CHARS = 4096;

beforeAll(() => jest.useFakeTimers(FAKE_DATE_ONLY));
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
});
