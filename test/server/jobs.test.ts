import fc from 'fast-check';
import { CATEGORY_GROUPS } from '../../nodes/JobSearch/filters';
import { createManualClock } from '../../server';
import { compileQuery, search, searchByFullScan } from '../../server/search';
import { JobStore } from '../../server/store';
import { startTestServer, T0 } from './helpers';
import { propertyParameters } from '../support/property';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('the seeded jobs', () => {
	it('are the same for the same seed and differ for another seed', () => {
		const uids = (seed: number) => new JobStore({ clock: createManualClock(T0), seed, jobs: 50 }).visible().map((e) => e.job.uid);
		expect(uids(7)).toEqual(uids(7));
		expect(uids(8)).not.toEqual(uids(7));
	});

	it('cover all 12 category groups within the last 30 days, with unique digit uids', () => {
		const entries = new JobStore({ clock: createManualClock(T0), seed: 1, jobs: 2000 }).visible();
		expect(new Set(entries.map((e) => e.job.categoryGroup))).toEqual(new Set(CATEGORY_GROUPS.map((g) => g.group)));
		expect(new Set(entries.map((e) => e.job.uid)).size).toBe(2000);
		for (const { job, createdMs } of entries) {
			expect(job.uid).toMatch(/^\d{19}$/);
			expect(createdMs).toBeGreaterThan(T0 - 30 * 24 * HOUR);
			expect(createdMs).toBeLessThanOrEqual(T0);
			expect(job.createdAt).toBe(new Date(createdMs).toISOString());
		}
	});
});

describe('the indexed search', () => {
	const store = new JobStore({ clock: createManualClock(T0), seed: 3, jobs: 3000 });
	const categories = CATEGORY_GROUPS.flatMap((g) => [`All - ${g.group}`, ...g.subcategories]);
	const body = fc.record(
		{
			limit: fc.integer({ min: 1, max: 500 }),
			searchPeriod: fc.constantFrom('1h', '24h', '7d', '30 days'),
			jobCategories: fc.uniqueArray(fc.constantFrom(...categories), { minLength: 1, maxLength: 4 }),
			'budget.hourlyRate.min': fc.integer({ min: 0, max: 100 }).map(String),
			'vendor.includeFeatured': fc.boolean(),
			'client.minFeedbackScore': fc.double({ min: 0, max: 5, noNaN: true }),
		},
		{ requiredKeys: [] },
	);

	it('answers exactly what a full scan answers', () => {
		fc.assert(
			fc.property(body, (input) => {
				const query = compileQuery(input, T0);
				expect(search(store, query)).toEqual(searchByFullScan(store, query));
			}),
			propertyParameters(150, 20261103),
		);
	});
});

describe('live mode', () => {
	it('keeps jobs arriving by the clock, each visible only after its ingestion lag', async () => {
		const t = await startTestServer({ jobs: 0, live: { postingsPerHour: 60, minLagMs: 5 * MINUTE, maxLagMs: 15 * MINUTE } });
		try {
			expect(t.server.admin.visibleJobs()).toHaveLength(0);
			t.clock.advance(3 * HOUR);
			const visible = t.server.admin.visibleJobs();
			const ages = visible.map((j) => T0 + 3 * HOUR - Date.parse(j.createdAt));
			// 180 arrivals; the ones younger than the shortest lag cannot be seen yet, the ones older than the longest must be.
			expect(Math.min(...ages)).toBeGreaterThanOrEqual(5 * MINUTE);
			expect(visible.length).toBeGreaterThanOrEqual(180 - 15);
			expect(visible.length).toBeLessThanOrEqual(180 - 5);
			// Each arrives within a second past its minute: the 165th just after the longest lag's edge.
			expect(visible.filter((j) => Date.parse(j.createdAt) <= T0 + 3 * HOUR - 15 * MINUTE)).toHaveLength(180 - 16);
			expect(visible.every((j) => Date.parse(j.createdAt) % MINUTE < 1000)).toBe(true);
			const res = await t.call('search_jobs', { searchPeriod: '1h', limit: 10_000 }, t.server.admin.demoKeys.enterprise);
			expect(res.data.data.total).toBe(visible.filter((j) => Date.parse(j.createdAt) >= T0 + 2 * HOUR).length);
		} finally {
			await t.server.close();
		}
	});

	it('shows the same arrivals for the same seed however the clock gets there', async () => {
		const a = await startTestServer({ jobs: 0, seed: 5, live: {} });
		const b = await startTestServer({ jobs: 0, seed: 5, live: {} });
		try {
			a.clock.advance(2 * HOUR);
			for (let i = 0; i < 8; i++) {
				b.clock.advance(15 * MINUTE);
				b.server.admin.visibleJobs();
			}
			expect(b.server.admin.visibleJobs().map((j) => j.uid)).toEqual(a.server.admin.visibleJobs().map((j) => j.uid));
		} finally {
			await Promise.all([a.server.close(), b.server.close()]);
		}
	});
});

describe('scripted jobs', () => {
	it('stay invisible to search and get_job until their visibleAt', async () => {
		const t = await startTestServer({ jobs: 0 });
		try {
			const key = t.server.admin.demoKeys.pro;
			const [job] = t.server.admin.addJobs([{ title: 'Late arrival', createdAt: new Date(T0 - MINUTE).toISOString(), visibleAt: T0 + 10 * MINUTE }]);
			expect((await t.call('search_jobs', {}, key)).data.data.total).toBe(0);
			expect((await t.call('get_job', { jobUid: job.uid }, key)).status).toBe(404);
			t.clock.advance(10 * MINUTE);
			expect((await t.call('search_jobs', {}, key)).data.data.jobs.map((j: { uid: string }) => j.uid)).toEqual([job.uid]);
			expect((await t.call('get_job', { jobUid: job.uid }, key)).data.data.title).toBe('Late arrival');
		} finally {
			await t.server.close();
		}
	});

	it('keep the fields a test states and fill the rest', () => {
		const store = new JobStore({ clock: createManualClock(T0), seed: 1, jobs: 0 });
		const [job] = store.add([{ uid: '42', category: 'Legal', client: { stats: { hireRate: null } } as never }]);
		expect(job.uid).toBe('42');
		expect(job.externalLink).toBe('https://www.upwork.com/jobs/~0242');
		expect(job.client.stats.hireRate).toBeNull();
		expect(job.client.countryCode).toMatch(/^[A-Z]{2}$/);
		expect(() => store.add([{ uid: '42' }])).toThrow(/already exists/);
	});
});
