import { recordingSleep, waitsMoveDate } from '../support/sleeps';

// Waits move the faked Date on instead of passing in real time; the reference server reads it too.
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));

import type { INodeProperties } from 'n8n-workflow';

import { JOB_SEARCH_TRIGGER_TYPE, loadNodeTypes } from '../harness';
import { iso, moveTo, postedAt, uidsOf } from './pollHelpers';
import { DAY_START, FAKE_DATE_ONLY, HOUR, MINUTE, ROW_PRICE_MICROCENTS, startHarnessed, type Harnessed, type TimeControl } from './scriptedDay';

// The trigger's panel as a no-code user meets it, and its options in real n8n-core's PollContext
// against the reference server.

const time: TimeControl = { set: (ms) => jest.setSystemTime(ms) };

beforeAll(() => {
	jest.useFakeTimers(FAKE_DATE_ONLY);
	waitsMoveDate();
});
afterAll(() => jest.useRealTimers());

let h: Harnessed | undefined;
afterEach(async () => {
	await h?.server.close();
	h = undefined;
});

const properties = () => loadNodeTypes().nodes[JOB_SEARCH_TRIGGER_TYPE].description.properties;

/** Every text the panel shows: labels, descriptions, hints, option names, notices. */
function shownTexts(list: readonly INodeProperties[]): string[] {
	return list.flatMap((p) => [
		p.displayName,
		p.description ?? '',
		p.hint ?? '',
		...((p.options ?? []) as unknown[]).flatMap((o) => {
			const option = o as INodeProperties & { name: string; description?: string; values?: INodeProperties[] };
			if (Array.isArray(option.values)) return shownTexts(option.values);
			if ('type' in option && typeof option.type === 'string') return shownTexts([option]);
			return [option.name, option.description ?? ''];
		}),
	]);
}

describe("the trigger's panel", () => {
	it('speaks of jobs, dollars and checks, never of rows, the index, stretches, batches, pages or "out of order"', () => {
		const texts = shownTexts(properties()).join('\n');
		expect(texts).toMatch(/\$0\.\d+ per new job/);
		// A sheet row is the user's own; a billed row is not theirs to think about.
		for (const word of [/(?<!sheet )\brows?\b/i, /\bindex\b/i, /\bstretch/i, /\bbatch/i, /\bpages?\b/i, /out of order/i]) expect(texts).not.toMatch(word);
	});

	it('says what activation pays for, and activation pays for that: the matching jobs of the Late Window before it and a quarter of an hour more', async () => {
		const notice = properties().find((p) => p.name === 'creditNotice')!.displayName;
		const minutes = Number(/\((\d+) minutes by default\)/.exec(notice)?.[1]);
		expect(minutes).toBe(75);
		h = await startHarnessed(time, DAY_START, {}, { jobs: 0 });
		// One just inside, one just outside: exactly one row is paid.
		h.server.admin.addJobs([{ createdAt: iso(DAY_START - (minutes - 1) * MINUTE) }, { createdAt: iso(DAY_START - (minutes + 1) * MINUTE) }]);
		const startBalance = h.server.admin.balance(h.accountId).totalMicrocents;
		expect((await h.poller.poll()).items).toEqual([]);
		expect((startBalance - h.server.admin.balance(h.accountId).totalMicrocents) / ROW_PRICE_MICROCENTS).toBe(1);
	});

	it('shows the filter groups in the same order under One Search and Several Searches', () => {
		const groups = (list: readonly INodeProperties[]) => list.filter((p) => p.type === 'collection' && p.name.endsWith('Filters')).map((p) => p.displayName);
		const one = groups(properties().filter((p) => p.displayOptions?.show?.watch?.includes('oneSearch')));
		const several = properties().find((p) => p.name === 'searches')!;
		const perSearch = ((several.options ?? []) as unknown as { values: INodeProperties[] }[])[0].values;
		expect(one.length).toBeGreaterThan(2);
		expect(groups(perSearch)).toEqual(one);
	});

	it('offers Delivery, As Soon As Seen by default, each option saying when to choose it', () => {
		const options = properties().find((p) => p.name === 'options')!.options as INodeProperties[];
		const delivery = options.find((o) => o.name === 'delivery')!;
		expect(delivery.default).toBe('asSoonAsSeen');
		expect((delivery.options as { name: string }[]).map((o) => o.name)).toEqual(['As Soon As Seen', 'Lowest Cost']);
		expect(delivery.description).toMatch(/Choose Lowest Cost/);
	});
});

describe('Several Searches', () => {
	it('refuses two searches with the same Alert Name before any request', async () => {
		const search = (name: string) => ({ name, keywordFilters: { includeKeywordsKeywords: name.toLowerCase() } });
		h = await startHarnessed(time, DAY_START, { watch: 'severalSearches', searches: { search: [search('Python'), search('python ')] } }, { jobs: 0 });
		const outcome = await h.poller.poll();
		expect(outcome.error?.message).toBe('Two searches are named "python"');
		expect(h.server.admin.callLog(h.accountId)).toEqual([]);
	});

	it('refuses a key the trigger sets in Additional Filters (JSON), an option of every search, naming no search, before any request', async () => {
		const searches = { search: [{ name: 'Python', keywordFilters: { includeKeywordsKeywords: 'python' } }] };
		h = await startHarnessed(time, DAY_START, { watch: 'severalSearches', searches, options: { additionalFilters: '{"limit": 50}' } }, { jobs: 0 });
		const outcome = await h.poller.poll();
		expect(outcome.error?.message).toBe('Additional Filters (JSON) sets "limit", which the trigger sets itself');
		expect(h.server.admin.callLog(h.accountId)).toEqual([]);
	});
});

describe('Delivery: Lowest Cost', () => {
	it('sends each new job once, after its Late Window has passed, not at the poll that first sees it', async () => {
		h = await startHarnessed(time, DAY_START, { options: { delivery: 'lowestCost' } }, { jobs: 0 });
		expect((await h.poller.poll()).items).toEqual([]);
		moveTo(time, DAY_START + 10 * MINUTE);
		const posted = h.server.admin.addJobs(postedAt(DAY_START + 9 * MINUTE, 3));
		const sent: string[] = [];
		let firstSentMs = 0;
		for (let t = DAY_START + 11 * MINUTE; t <= DAY_START + 3 * HOUR; t += 5 * MINUTE) {
			moveTo(time, t);
			const outcome = await h.poller.poll();
			expect(outcome.error).toBeUndefined();
			if (outcome.items.length && !firstSentMs) firstSentMs = t;
			sent.push(...uidsOf(outcome.items));
		}
		expect(sent.sort()).toEqual(posted.map((j) => j.uid).sort());
		expect(firstSentMs).toBeGreaterThan(Date.parse(iso(DAY_START + 9 * MINUTE)) + 60 * MINUTE);
	});
});
