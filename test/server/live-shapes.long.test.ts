import fc from 'fast-check';
import { createManualClock, startServer } from '../../server';
import { approximateTotal, resolveLiveOptions, type LiveOptions } from '../../server/liveOptions';
import { compileQuery, search, searchByFullScan, type SearchBody } from '../../server/search';
import { compareEntries, JobStore, type Entry } from '../../server/store';
import { propertyParameters } from '../support/property';
import { busiestLiveMode } from '../../bench/server.bench';
import { startTestServer, T0 } from './helpers';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A store on a manual clock at T0, with nothing seeded unless asked. */
function liveStore(live: LiveOptions, seed = 1, jobs = 0) {
	const clock = createManualClock(T0);
	return { clock, store: new JobStore({ clock, seed, jobs, live }) };
}

const find = (store: JobStore, body: SearchBody = {}) => search(store, compileQuery({ limit: 10_000, ...body }, store.now()), store.answerShape());

const iso = (ms: number) => new Date(ms).toISOString();

/** Runs of consecutive entries that share a createdAt, as arrays of uids. */
function tieGroups(entries: readonly { createdAt: string; uid: string }[]): string[][] {
	const groups: string[][] = [];
	entries.forEach((job, i) => {
		if (i > 0 && job.createdAt === entries[i - 1].createdAt) groups[groups.length - 1].push(job.uid);
		else groups.push([job.uid]);
	});
	return groups;
}

/** Steps the clock and records, per uid, each createdAt the index showed it at and when it first did. */
function watch(clock: ReturnType<typeof createManualClock>, store: JobStore, untilMs: number, stepMs: number) {
	const sightings = new Map<string, { createdMs: number; firstSeenMs: number }[]>();
	while (clock.now() < untilMs) {
		clock.advance(stepMs);
		const visible = store.visible();
		expect(new Set(visible.map((e) => e.job.uid)).size).toBe(visible.length);
		for (const { job, createdMs } of visible) {
			const seen = sightings.get(job.uid) ?? [];
			if (seen.length === 0 || seen[seen.length - 1].createdMs !== createdMs) seen.push({ createdMs, firstSeenMs: clock.now() });
			sightings.set(job.uid, seen);
		}
	}
	return sightings;
}

describe('live options', () => {
	it.each<[string, unknown, RegExp]>([
		['an unknown option', { repostshare: 0.1 }, /live option repostshare is unknown; the options are .*repostShare/],
		['a share above 1', { repostShare: 1.5 }, /live option repostShare must be a number from 0 to 1, got 1\.5/],
		['a negative share', { stragglerShare: -0.1 }, /stragglerShare must be a number from 0 to 1/],
		['a rounding below 0', { roundCreatedAtMs: -1 }, /roundCreatedAtMs must be an integer from 0 to 3600000, got -1/],
		['a rounding that is not whole', { roundCreatedAtMs: 0.5 }, /roundCreatedAtMs must be an integer/],
		['a skew over a day', { skewMs: 2 * DAY }, /skewMs must be an integer from -86400000 to 86400000/],
		['a skew that is not a number', { skewMs: '5m' }, /skewMs must be an integer .*got "5m"/],
		['a totals flag that is not boolean', { approximateTotals: 'yes' }, /approximateTotals must be true or false, got "yes"/],
		['a tie flag that is not boolean', { unstableTieOrder: 1 }, /unstableTieOrder must be true or false/],
		['bursts that are not an array', { bursts: { at: T0 } }, /bursts must be an array of at most 100/],
		['a burst at no date', { bursts: [{ at: 'tomorrow', count: 10, spreadMs: 1000 }] }, /bursts\[0\]\.at must be epoch milliseconds or an ISO 8601 date/],
		['a burst of nothing', { bursts: [{ at: T0, count: 0, spreadMs: 1000 }] }, /bursts\[0\]\.count must be an integer from 1 to 100000, got 0/],
		['a burst spread below 0', { bursts: [{ at: T0, count: 5, spreadMs: -1 }] }, /bursts\[0\]\.spreadMs must be an integer from 0/],
		['a burst field misspelt', { bursts: [{ at: T0, count: 5, spreadMS: 1 }] }, /bursts\[0\]\.spreadMS is not a burst field/],
		['no postings', { postingsPerHour: 0 }, /postingsPerHour must be a number above 0/],
		['lags the wrong way round', { minLagMs: 2000, maxLagMs: 1000 }, /maxLagMs must be at least minLagMs \(2000\), got 1000/],
		['an unknown arrival process', { arrivals: 'bursty' }, /arrivals must be one of steady, poisson, got "bursty"/],
		['an unknown model', { model: 'stream' }, /model must be one of batch, out-of-order, lag/],
	])('refuses %s, naming the option', (_, live, message) => {
		expect(() => resolveLiveOptions(live as LiveOptions)).toThrow(message);
	});

	it('refuses them when the server starts, before it listens', async () => {
		const outcome = await startServer({ jobs: 0, live: { repostShare: 2 } }).then(
			async (server) => {
				await server.close();
				return 'started';
			},
			(error: Error) => error.message,
		);
		expect(outcome).toMatch(/repostShare must be a number from 0 to 1/);
	});

	it('are all off by default: the documented order, exact totals, no bursts, reposts, rounding or skew', () => {
		expect(resolveLiveOptions({})).toMatchObject({
			arrivals: 'steady',
			approximateTotals: false,
			unstableTieOrder: false,
			bursts: [],
			repostShare: 0,
			roundCreatedAtMs: 0,
			skewMs: 0,
		});
	});

	it('takes a burst at an ISO date as the same instant in epoch ms', () => {
		const at = T0 + HOUR;
		expect(resolveLiveOptions({ bursts: [{ at: iso(at), count: 3, spreadMs: 10 }] }).bursts).toEqual([{ atMs: at, count: 3, spreadMs: 10 }]);
	});
});

describe('approximate totals', () => {
	it('round 1,000 or more down to a thousand, cap them at 10,000, and leave smaller counts exact', () => {
		expect([0, 999, 1000, 1999, 2000, 9999, 10_000, 25_000].map(approximateTotal)).toEqual([0, 999, 1000, 1000, 2000, 9000, 10_000, 10_000]);
	});

	it('answer a busy search on REST and MCP alike, with the same page as exact totals', async () => {
		const live: LiveOptions = { model: 'lag', postingsPerHour: 1500, minLagMs: MINUTE, maxLagMs: MINUTE };
		const exact = await startTestServer({ jobs: 0, seed: 4, live });
		const rounded = await startTestServer({ jobs: 0, seed: 4, live: { ...live, approximateTotals: true } });
		try {
			for (const t of [exact, rounded]) t.clock.advance(3 * HOUR);
			const busy = { fromDate: iso(T0), limit: 5 };
			const quiet = { fromDate: iso(T0 + 3 * HOUR - 20 * MINUTE), limit: 5 };
			const rest = async (t: typeof exact, body: object) => (await t.call('search_jobs', body, t.server.admin.demoKeys.pro)).data.data;
			const mcp = async (t: typeof exact, body: object) =>
				(
					await t.http.post(
						'/mcp',
						{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_jobs', arguments: body } },
						{ headers: { authorization: `Bearer ${t.server.admin.demoKeys.pro}` } },
					)
				).data.result.structuredContent.data;
			const exactBusy = await rest(exact, busy);
			expect(exactBusy.total % 1000).not.toBe(0);
			expect(exactBusy.total).toBeGreaterThan(4000);
			for (const answer of [await rest(rounded, busy), await mcp(rounded, busy)]) {
				expect(answer.total).toBe(Math.floor(exactBusy.total / 1000) * 1000);
				expect(answer.jobs).toEqual(exactBusy.jobs);
			}
			const exactQuiet = await rest(exact, quiet);
			expect(exactQuiet.total).toBeLessThan(1000);
			expect((await rest(rounded, quiet)).total).toBe(exactQuiet.total);
			expect((await mcp(rounded, quiet)).total).toBe(exactQuiet.total);
		} finally {
			await Promise.all([exact.server.close(), rounded.server.close()]);
		}
	});

	it('never report more than 10,000', () => {
		const { clock, store } = liveStore({ model: 'lag', postingsPerHour: 12_000, minLagMs: 0, maxLagMs: 0, approximateTotals: true });
		clock.advance(HOUR);
		expect(store.visible().length).toBeGreaterThan(11_000);
		expect(find(store, { limit: 1 }).total).toBe(10_000);
	});
});

describe('ties', () => {
	const ties: LiveOptions = { model: 'lag', postingsPerHour: 1500, minLagMs: MINUTE, maxLagMs: MINUTE, roundCreatedAtMs: MINUTE };

	it('round every createdAt down to whole minutes, so about 25 postings share each', () => {
		const { clock, store } = liveStore(ties, 1, 50);
		clock.advance(2 * HOUR);
		const visible = store.visible();
		expect(visible.every((e) => e.createdMs % MINUTE === 0 && e.job.createdAt === iso(e.createdMs))).toBe(true);
		const sizes = tieGroups(visible.filter((e) => e.createdMs >= T0).map((e) => e.job)).map((g) => g.length);
		expect(Math.max(...sizes)).toBeGreaterThanOrEqual(24);
	});

	it('round to whole seconds, leaving createdAt unrounded without the option', () => {
		const rounded = liveStore({ ...ties, roundCreatedAtMs: 1000 });
		const plain = liveStore({ ...ties, roundCreatedAtMs: undefined });
		for (const { clock } of [rounded, plain]) clock.advance(HOUR);
		expect(rounded.store.visible().every((e) => e.createdMs % 1000 === 0)).toBe(true);
		expect(plain.store.visible().filter((e) => e.createdMs % 1000 !== 0).length).toBeGreaterThan(1000);
	});

	it('come back newest first, ties by uid descending, the same on every request by default', () => {
		const { clock, store } = liveStore(ties);
		clock.advance(2 * HOUR);
		const first = find(store).jobs;
		expect(find(store).jobs).toEqual(first);
		const entries: Entry[] = first.map((job) => ({ job, createdMs: Date.parse(job.createdAt) }));
		expect([...entries].sort(compareEntries)).toEqual(entries);
	});

	it('come back in a different order on each request with unstableTieOrder, newest first still', () => {
		const { clock, store } = liveStore({ ...ties, unstableTieOrder: true });
		clock.advance(2 * HOUR);
		const a = find(store).jobs;
		const b = find(store).jobs;
		expect(a.map((j) => j.uid)).not.toEqual(b.map((j) => j.uid));
		expect(a.map((j) => j.createdAt)).toEqual(b.map((j) => j.createdAt));
		expect(new Set(a.map((j) => j.uid))).toEqual(new Set(b.map((j) => j.uid)));
		// Each group holds the same jobs, in an order that is not the documented one.
		const groupsA = tieGroups(a);
		expect(groupsA.map((g) => [...g].sort())).toEqual(tieGroups(b).map((g) => [...g].sort()));
		expect(groupsA.some((g) => g.some((uid, i) => i > 0 && (uid.length > g[i - 1].length || uid > g[i - 1])))).toBe(true);
	});

	it.each<[string, SearchBody]>([
		['without a filter', {}],
		['with a filter', { 'client.paymentMethodVerified': true }],
	])('put different members of the group a page ends in on the page, from one request to the next, %s', (_, filter) => {
		const { clock, store } = liveStore({ ...ties, unstableTieOrder: true });
		clock.advance(2 * HOUR);
		const newest = tieGroups(find(store, filter).jobs);
		const limit = newest[0].length + 3;
		const seen = new Set<string>();
		for (let i = 0; i < 10; i++) {
			const page = find(store, { ...filter, limit }).jobs;
			expect(page).toHaveLength(limit);
			expect(new Set(page.map((j) => j.uid))).toEqual(expect.objectContaining({ size: limit }));
			expect(page.slice(newest[0].length).every((j) => newest[1].includes(j.uid))).toBe(true);
			page.forEach((j) => seen.add(j.uid));
		}
		expect(seen.size).toBeGreaterThan(limit);
	});

	it('replay the same orders for the same seed and requests', () => {
		const orders = () => {
			const { clock, store } = liveStore({ ...ties, unstableTieOrder: true }, 8);
			clock.advance(2 * HOUR);
			return [find(store), find(store, { limit: 30 }), find(store)].map((r) => r.jobs.map((j) => j.uid));
		};
		expect(orders()).toEqual(orders());
	});

	it('are shuffled by the search handler, on REST', async () => {
		const t = await startTestServer({ jobs: 0, live: { ...ties, unstableTieOrder: true } });
		try {
			t.clock.advance(2 * HOUR);
			const uids = async () => (await t.call('search_jobs', { limit: 200 }, t.server.admin.demoKeys.pro)).data.data.jobs.map((j: { uid: string }) => j.uid);
			expect(await uids()).not.toEqual(await uids());
		} finally {
			await t.server.close();
		}
	});

	it('arrive at random moments with poisson arrivals, at the asked rate on average, so whole seconds tie', () => {
		const { clock, store } = liveStore({ ...ties, arrivals: 'poisson', roundCreatedAtMs: 1000 });
		const steady = liveStore({ ...ties, roundCreatedAtMs: 1000 });
		for (const c of [clock, steady.clock]) c.advance(4 * HOUR);
		const created = (s: JobStore) => s.visible().map((e) => e.createdMs).reverse();
		const times = created(store);
		expect(times.length).toBeGreaterThan(4 * 1500 * 0.9);
		expect(times.length).toBeLessThan(4 * 1500 * 1.1);
		expect(tieGroups(store.visible().map((e) => e.job)).some((g) => g.length > 1)).toBe(true);
		// Evenly spaced postings 2.4 s apart never share a second.
		expect(tieGroups(steady.store.visible().map((e) => e.job)).every((g) => g.length === 1)).toBe(true);
	});
});

describe('bursts', () => {
	const at = T0 + HOUR;
	const base: LiveOptions = { model: 'batch', postingsPerHour: 40, stragglerShare: 0, removalShare: 0 };

	it('import count postings within spreadMs, each shown 1 to 16 minutes after its createdAt even on a batch index', () => {
		const { clock, store } = liveStore({ ...base, bursts: [{ at, count: 3000, spreadMs: 2 * MINUTE }] });
		clock.advance(HOUR);
		const sightings = watch(clock, store, at + 20 * MINUTE, 15_000);
		const burst = [...sightings].filter(([, [first]]) => first.createdMs >= at && first.createdMs < at + 2 * MINUTE);
		// 3,000 imported, and the one or two regular postings of those two minutes.
		expect(burst.length).toBeGreaterThanOrEqual(3000);
		expect(burst.length).toBeLessThanOrEqual(3003);
		const lags = burst.map(([, [first]]) => first.firstSeenMs - first.createdMs);
		expect(Math.min(...lags)).toBeGreaterThanOrEqual(MINUTE);
		expect(Math.max(...lags)).toBeLessThanOrEqual(16 * MINUTE + 15_000);
		// Out of order: shown over many moments, not at one or two refreshes.
		expect(new Set(burst.map(([, [first]]) => first.firstSeenMs)).size).toBeGreaterThan(40);
		// Uids still grow with createdAt, as upstream's do.
		const byCreated = burst.map(([uid, [first]]) => ({ uid, createdMs: first.createdMs })).sort((a, b) => a.createdMs - b.createdMs || (a.uid < b.uid ? -1 : 1));
		expect(byCreated.every((job, i) => i === 0 || job.uid > byCreated[i - 1].uid)).toBe(true);
	});

	it('are the same postings whether at is given in epoch ms or as an ISO date', () => {
		const uids = (atValue: number | string) => {
			const { clock, store } = liveStore({ ...base, bursts: [{ at: atValue, count: 200, spreadMs: MINUTE }] });
			clock.advance(2 * HOUR);
			return store.visible().map((e) => `${e.job.uid}@${e.job.createdAt}`);
		};
		expect(uids(iso(at))).toEqual(uids(at));
	});

	it('straggle and are removed like other postings', () => {
		const { clock, store } = liveStore({ ...base, stragglerShare: 0.1, removalShare: 0.1, removalMinMs: 0, removalMaxMs: 10 * MINUTE, bursts: [{ at, count: 1000, spreadMs: MINUTE }] });
		clock.advance(HOUR);
		const sightings = watch(clock, store, at + 2 * HOUR, MINUTE);
		const burst = [...sightings].filter(([, [first]]) => first.createdMs >= at && first.createdMs < at + MINUTE);
		expect(burst.filter(([, [first]]) => first.firstSeenMs - first.createdMs > 16 * MINUTE + MINUTE).length).toBeGreaterThan(50);
		expect(burst.filter(([uid]) => store.get(uid) === undefined).length).toBeGreaterThan(50);
	});
});

describe('reposts', () => {
	const live: LiveOptions = { model: 'out-of-order', postingsPerHour: 120, stragglerShare: 0, removalShare: 0.1, removalMinMs: 0, removalMaxMs: 5 * MINUTE, repostShare: 0.3 };

	it('show a share of jobs again under the same uid at a createdAt 20 to 60 minutes later, from when the repost is shown', () => {
		const { clock, store } = liveStore(live);
		const sightings = watch(clock, store, T0 + 5 * HOUR, MINUTE);
		// Postings old enough for their repost to have been shown.
		const settled = [...sightings].filter(([, [first]]) => first.createdMs < T0 + 3 * HOUR);
		const reposted = settled.filter(([, seen]) => seen.length > 1);
		expect(reposted.length / settled.length).toBeGreaterThan(0.2);
		expect(reposted.length / settled.length).toBeLessThan(0.35);
		for (const [uid, seen] of reposted) {
			expect(seen).toHaveLength(2);
			const [before, after] = seen;
			expect(after.createdMs - before.createdMs).toBeGreaterThanOrEqual(20 * MINUTE);
			expect(after.createdMs - before.createdMs).toBeLessThan(60 * MINUTE);
			// Shown 1 to 16 minutes after the new createdAt (within the minute of the watch), at the old one until then.
			expect(after.firstSeenMs - after.createdMs).toBeGreaterThanOrEqual(MINUTE);
			expect(after.firstSeenMs - after.createdMs).toBeLessThan(17 * MINUTE);
			expect(store.get(uid)?.createdAt).toBe(iso(after.createdMs));
		}
	});

	it('move the job in the search: it leaves its old createdAt and is found at the new one', () => {
		const { clock, store } = liveStore(live);
		const sightings = watch(clock, store, T0 + 4 * HOUR, MINUTE);
		const [uid, [before, after]] = [...sightings].find(([, seen]) => seen.length > 1)!;
		const at = (ms: number) => find(store, { fromDate: iso(ms), toDate: iso(ms) }).jobs.map((j) => j.uid);
		expect(at(before.createdMs)).not.toContain(uid);
		expect(at(after.createdMs)).toContain(uid);
	});

	it('never repost a job that is removed, nor bring back one the admin removed', () => {
		const { clock, store } = liveStore({ ...live, repostShare: 1 });
		const sightings = watch(clock, store, T0 + 3 * HOUR, MINUTE);
		const removedByIndex = [...sightings].filter(([uid]) => store.get(uid) === undefined);
		expect(removedByIndex.length).toBeGreaterThan(10);
		expect(removedByIndex.every(([, seen]) => seen.length === 1)).toBe(true);
		const waiting = [...sightings].filter(([uid, seen]) => seen.length === 1 && store.get(uid) !== undefined).map(([uid]) => uid);
		expect(waiting.length).toBeGreaterThan(10);
		expect(store.remove(waiting)).toBe(waiting.length);
		clock.advance(2 * HOUR);
		expect(waiting.filter((uid) => store.get(uid) !== undefined)).toEqual([]);
	});

	it('show a job whose repost is shown before the job itself at the new createdAt straight away', () => {
		// Every posting straggles to 60 minutes after its createdAt; a repost 20 to 30 minutes later is shown before that.
		const { clock, store } = liveStore({ model: 'out-of-order', postingsPerHour: 120, minLagMs: 30 * MINUTE, maxLagMs: 30 * MINUTE, stragglerShare: 1, removalShare: 0, repostShare: 1 });
		const sightings = watch(clock, store, T0 + 4 * HOUR, MINUTE);
		const firsts = [...sightings].map(([, [first]]) => first.firstSeenMs - first.createdMs);
		// Seen on the watch's first minute at or after the straggle (createdAt carry milliseconds).
		expect(firsts.filter((lag) => lag >= 60 * MINUTE && lag <= 61 * MINUTE).length).toBeGreaterThan(20);
		expect(firsts.filter((lag) => lag < 60 * MINUTE).length).toBeGreaterThan(20);
	});
});

describe('clock skew', () => {
	const lag: LiveOptions = { model: 'lag', postingsPerHour: 60, minLagMs: 2 * MINUTE, maxLagMs: 2 * MINUTE };

	it('puts every createdAt and visibility on the index clock, skewMs behind the server clock', () => {
		const plain = liveStore(lag, 3, 20);
		const behind = liveStore({ ...lag, skewMs: 10 * MINUTE }, 3, 20);
		for (const { clock } of [plain, behind]) clock.advance(2 * HOUR);
		const shifted = plain.store.visible().map((e) => `${e.job.uid}@${iso(e.createdMs - 10 * MINUTE)}`);
		expect(behind.store.visible().map((e) => `${e.job.uid}@${e.job.createdAt}`)).toEqual(shifted);
		expect(behind.store.visible()[0].createdMs).toBeLessThanOrEqual(behind.clock.now() - 10 * MINUTE - 2 * MINUTE);
	});

	it('shows jobs created after the server clock when the index clock runs ahead', async () => {
		const t = await startTestServer({ jobs: 0, live: { ...lag, skewMs: -10 * MINUTE } });
		try {
			t.clock.advance(HOUR);
			const [newest] = (await t.call('search_jobs', { limit: 1 }, t.server.admin.demoKeys.pro)).data.data.jobs;
			expect(Date.parse(newest.createdAt)).toBeGreaterThan(t.clock.now());
		} finally {
			await t.server.close();
		}
	});

	it('counts searchPeriod back from the index clock, as the service computes it', async () => {
		const t = await startTestServer({ jobs: 0, live: { ...lag, skewMs: 20 * MINUTE } });
		try {
			t.clock.advance(3 * HOUR);
			const { jobs } = (await t.call('search_jobs', { searchPeriod: '1h', limit: 500 }, t.server.admin.demoKeys.pro)).data.data;
			const oldest = Math.min(...jobs.map((j: { createdAt: string }) => Date.parse(j.createdAt)));
			expect(oldest).toBeLessThan(t.clock.now() - HOUR);
			expect(oldest).toBeGreaterThanOrEqual(t.clock.now() - 20 * MINUTE - HOUR);
		} finally {
			await t.server.close();
		}
	});
});

describe('standing filters', () => {
	const messy: LiveOptions = {
		model: 'out-of-order',
		postingsPerHour: 300,
		arrivals: 'poisson',
		roundCreatedAtMs: 1000,
		removalShare: 0.1,
		removalMinMs: 0,
		removalMaxMs: 20 * MINUTE,
		stragglerShare: 0.05,
		repostShare: 0.2,
		bursts: [{ at: T0 + HOUR, count: 300, spreadMs: MINUTE }],
	};
	const filter = fc.record(
		{
			jobCategories: fc.constantFrom(['All - Web, Mobile & Software Dev'], ['Web Development', 'Legal']),
			'client.paymentMethodVerified': fc.constant(true),
			'budget.hourlyRate.min': fc.constantFrom('20', '40'),
			'vendor.includeFeatured': fc.constant(false),
			'includeKeywords.keywords': fc.constantFrom(['api'], ['design', 'data']),
		},
		{ requiredKeys: [] },
	);
	const step = fc.record({
		advanceMs: fc.integer({ min: 0, max: 20 * MINUTE }),
		filter,
		window: fc.oneof(
			fc.record({ searchPeriod: fc.constantFrom('1h', '24h') }),
			fc.record({ fromAgoMs: fc.integer({ min: 0, max: 3 * HOUR }), spanMs: fc.integer({ min: 0, max: 2 * HOUR }) }),
		),
		limit: fc.integer({ min: 1, max: 200 }),
	});

	it('answer what a full scan answers while jobs show, move, straggle and go', () => {
		fc.assert(
			fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 1000 }), (steps, seed) => {
				const { clock, store } = liveStore(messy, seed, 100);
				clock.advance(HOUR);
				for (const { advanceMs, filter: f, window, limit } of steps) {
					clock.advance(advanceMs);
					const bounds =
						'searchPeriod' in window
							? window
							: { fromDate: iso(store.now() - window.fromAgoMs - window.spanMs), toDate: iso(store.now() - window.fromAgoMs) };
					const query = compileQuery({ ...f, ...bounds, limit }, store.now());
					expect(search(store, query)).toEqual(searchByFullScan(store, query));
				}
			}),
			propertyParameters(30, 20261124),
		);
	});

	it('answer right after more filters were asked than the store keeps', () => {
		const { clock, store } = liveStore(messy);
		clock.advance(3 * HOUR);
		const filters = Array.from({ length: 20 }, (_, i) => ({ 'budget.hourlyRate.min': String(i * 3), 'client.paymentMethodVerified': true }));
		for (let round = 0; round < 2; round++) {
			for (const f of filters) {
				clock.advance(MINUTE);
				const query = compileQuery({ ...f, searchPeriod: '24h', limit: 50 }, store.now());
				expect(search(store, query)).toEqual(searchByFullScan(store, query));
			}
		}
	});
});

describe('a busy index', () => {
	// How fast it answers is the server bench's to measure (`npm run bench server`), side by side with a full scan.
	it('answers a search over a day of 1,500 postings an hour, every shape on, with the posting times a full scan finds', () => {
		const { clock, store } = liveStore(busiestLiveMode(T0), 1, 2000);
		for (let minute = 0; minute < 25 * 60; minute++) {
			clock.advance(MINUTE);
			store.visible();
		}
		const query = compileQuery({ fromDate: iso(store.now() - DAY), limit: 1000, 'client.paymentMethodVerified': true }, store.now());
		const { jobs, total } = search(store, query, store.answerShape());
		expect(jobs).toHaveLength(1000);
		expect(total).toBe(10_000);
		// The order within a millisecond changes on every request (unstable ties): the posting times are what must agree.
		const scanned = searchByFullScan(store, query);
		expect(scanned.total).toBeGreaterThan(10_000);
		expect(jobs.map((job) => job.createdAt)).toEqual(scanned.jobs.map((job) => job.createdAt));
	});
});
