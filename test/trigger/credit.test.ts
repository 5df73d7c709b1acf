import type { IDataObject } from 'n8n-workflow';

import { PACE_KEY, WARNED_KEY, creditAfterPoll } from '../../nodes/JobSearch/service/creditPace';
import { triggerItems } from '../../nodes/JobSearch/output/triggerItems';
import { DAY_MS, HOUR_MS } from '../../nodes/JobSearch/service/runway';

const T0 = Date.UTC(2026, 11, 1, 8, 0, 0);
const ROW = 579_000;

describe('the credit a trigger has left', () => {
	it('warns once a day when the credit lasts less than a week at the trigger\'s pace, and says nothing while it lasts', () => {
		const staticData: IDataObject = {};
		const warnings: string[] = [];
		// 10 rows an hour, with credit for about five days of it.
		const remainingAt = (hours: number) => 1200 * ROW - hours * 10 * ROW;
		for (let h = 0; h <= 30; h++) {
			const { warnNow } = creditAfterPoll(staticData, T0 + h * HOUR_MS, 10 * ROW, remainingAt(h));
			if (warnNow) warnings.push(`${h}: ${warnNow}`);
		}
		expect(warnings).toHaveLength(2);
		expect(warnings[0]).toMatch(/about \d+ more polls like this one, about \d/);
		expect(staticData[PACE_KEY]).toBeDefined();
		expect(Date.parse(staticData[WARNED_KEY] as string) - T0).toBeGreaterThanOrEqual(DAY_MS);
		const plenty: IDataObject = {};
		for (let h = 0; h <= 30; h++) expect(creditAfterPoll(plenty, T0 + h * HOUR_MS, 10 * ROW, 1e12).warnNow).toBeUndefined();
	});

	it('puts creditLeft on the first item of a poll and on the digest, with Include Usage', () => {
		const { creditLeft } = creditAfterPoll({}, T0, 2 * ROW, 100 * ROW);
		const jobs = [{ uid: '2', title: 'B', createdAt: new Date(T0).toISOString() }, { uid: '1', title: 'A', createdAt: new Date(T0 - 1).toISOString() }];
		const usage = { consumedMicrocents: 2 * ROW, remainingMicrocents: 100 * ROW };
		const perJob = triggerItems(jobs, { simplify: false, output: 'perJob', usage, creditLeft });
		expect(perJob[0].json.creditLeft).toEqual(expect.objectContaining({ remainingMicrocents: 100 * ROW, runsLeft: 50 }));
		expect(perJob[1].json.creditLeft).toBeUndefined();
		const digest = triggerItems(jobs, { simplify: false, output: 'perPoll', usage, creditLeft });
		expect(digest[0].json.creditLeft).toEqual(expect.objectContaining({ runsLeft: 50 }));
	});

	it('names the searches that found each job, in the items and in the digest text', () => {
		const jobs = [{ uid: '2', title: 'Scraper', createdAt: new Date(T0).toISOString() }];
		const foundBy = () => ['Python', 'Scraping'];
		const [item] = triggerItems(jobs, { simplify: true, output: 'perJob', foundBy });
		expect(item.json).toEqual(expect.objectContaining({ search: 'Python', searches: ['Python', 'Scraping'] }));
		const [digest] = triggerItems(jobs, { simplify: true, output: 'perPoll', foundBy });
		expect(digest.json.text).toContain('[Python, Scraping]');
		expect((digest.json.jobs as IDataObject[])[0]).toEqual(expect.objectContaining({ search: 'Python' }));
	});
});
