import { createManualClock } from '../server';
import type { LiveOptions } from '../server/liveOptions';
import { compileQuery, search, searchByFullScan, type SearchBody } from '../server/search';
import { JobStore } from '../server/store';

const JOBS = 100_000;
const RUNS = 15;
const NOW = Date.parse('2026-11-20T12:00:00.000Z');

const QUERIES: [string, SearchBody][] = [
	['last hour, newest 100', { searchPeriod: '1h' }],
	['last 24h, one category', { searchPeriod: '24h', jobCategories: ['Web Development'] }],
	['last 7d, group + budget', { searchPeriod: '7d', jobCategories: ['All - Data Science & Analytics'], 'budget.hourlyRate.min': '40' }],
	['last 7d, keywords', { searchPeriod: '7d', 'includeKeywords.keywords': ['n8n', 'automation'], limit: 50 }],
	['30d, two categories, verified clients', { jobCategories: ['Mobile Development', 'Content Writing'], 'client.paymentMethodVerified': true }],
	['everything, 10,000 rows', { limit: 10_000 }],
];

function median(samples: number[]): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

function time(fn: () => unknown): number {
	const samples: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const start = process.hrtime.bigint();
		fn();
		samples.push(Number(process.hrtime.bigint() - start) / 1e6);
	}
	return median(samples);
}

/** Indexed search against a full scan of the same store, query by query, in one run. */
export default async function (): Promise<void> {
	const started = process.hrtime.bigint();
	const store = new JobStore({ clock: createManualClock(NOW), seed: 1, jobs: JOBS });
	console.log(`${JOBS.toLocaleString('en-US')} jobs generated and indexed in ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(0)} ms`);
	console.log('| query | matches | indexed ms | full scan ms | full scan / indexed |');
	console.log('|---|---:|---:|---:|---:|');
	for (const [name, body] of QUERIES) {
		const query = compileQuery(body, NOW);
		const indexed = search(store, query);
		const scanned = searchByFullScan(store, query);
		if (indexed.total !== scanned.total || indexed.jobs.length !== scanned.jobs.length) throw new Error(`${name}: index and scan disagree`);
		const a = time(() => search(store, query));
		const b = time(() => searchByFullScan(store, query));
		console.log(`| ${name} | ${indexed.total} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(1)}x |`);
	}
	liveBusyDay();
}

/** The live mode at the trigger bench's busiest: 1,500 postings an hour with every shape on, a burst two hours after `startMs`. */
export const busiestLiveMode = (startMs: number): LiveOptions => ({
	model: 'out-of-order',
	postingsPerHour: 1500,
	arrivals: 'poisson',
	approximateTotals: true,
	unstableTieOrder: true,
	roundCreatedAtMs: 1000,
	repostShare: 0.05,
	bursts: [{ at: startMs + 2 * 3_600_000, count: 3000, spreadMs: 120_000 }],
});

/** A day of the busiest live mode (aim: well under 10 ms a search). */
function liveBusyDay(): void {
	const clock = createManualClock(NOW);
	const store = new JobStore({ clock, seed: 1, jobs: 2000, live: busiestLiveMode(NOW) });
	for (let minute = 0; minute < 25 * 60; minute++) {
		clock.advance(60_000);
		store.visible();
	}
	const query = compileQuery({ fromDate: new Date(store.now() - 86_400_000).toISOString(), limit: 1000, 'client.paymentMethodVerified': true }, store.now());
	const a = time(() => search(store, query, store.answerShape()));
	const b = time(() => searchByFullScan(store, query));
	console.log(`| live mode, a day of 1,500 an hour, every shape on, newest 1,000 | ${search(store, query).total} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(1)}x |`);
}
