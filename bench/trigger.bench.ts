import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import {
	VERIFIED_CLIENTS,
	isVerifiedClient,
	runScriptedDay,
	type DayResult,
	type PollerFigures,
	type TimeControl,
} from '../test/trigger/scriptedDay';

/** The goal per poll interval (rows paid per delivered job), from the job-alert issue. */
const GOALS: Record<number, number> = { 1: 1.5, 5: 1.3, 15: 1.2, 60: 1.1 };
const HOURS = 24;

/**
 * The Job Search Trigger against what users build today (Schedule Trigger + search the last 24
 * hours + Remove Duplicates), over the same simulated day on the batch-refresh index, at fixed
 * poll intervals. Both pay the same reference server; every figure is measured in this run.
 */
export default async function triggerBench(): Promise<void> {
	// n8n-core writes its config on first use: keep it out of the home folder, as the tests do.
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-job-search-bench-'));
	process.env.N8N_USER_FOLDER ??= userFolder;
	const realNow = Date.now;
	let fakeNow = realNow();
	const time: TimeControl = { set: (ms) => (fakeNow = ms) };
	Date.now = () => fakeNow;
	const rows: string[] = [];
	const row = (name: string, every: number, polls: number, f: PollerFigures, goal: string) => {
		const perJob = f.rowsPaid / Math.max(1, f.delivered.length);
		rows.push(
			`| ${name} | ${every} min | ${perJob.toFixed(2)} | ${(f.requests / polls).toFixed(2)} | ${((100 * f.onFirstPoll) / Math.max(1, f.delivered.length)).toFixed(1)}% | ${f.missed.length} | ${f.duplicates.length} | ${goal} |`,
		);
	};
	try {
		const started = realNow();
		let jobs = 0;
		for (const every of [1, 5, 15, 60]) {
			const day: DayResult = await runScriptedDay({
				time,
				seed: 5,
				hours: HOURS,
				pollEvery: [every, every],
				parameters: VERIFIED_CLIENTS,
				matches: isVerifiedClient,
				live: { model: 'batch', postingsPerHour: 40 },
				baseline: true,
			});
			await day.h.server.close();
			jobs = day.expected.length;
			const perJob = day.trigger.rowsPaid / day.trigger.delivered.length;
			row('Job Search Trigger', every, day.polls, day.trigger, `≤ ${GOALS[every]}: ${perJob <= GOALS[every] ? 'met' : 'NOT met'}`);
			row('Schedule + 24h search + Remove Duplicates', every, day.polls, day.baseline!, '');
			rows.push(`| floor: each job paid once | ${every} min | 1.00 | | | | | |`);
		}
		console.log(
			`simulated day: ${HOURS} h, batch-refresh index (refresh every 5-15 min, 2% stragglers, 1% removed), ~${jobs} new matching jobs (${((realNow() - started) / 1000).toFixed(0)} s)`,
		);
		console.log('| poller | poll every | rows per delivered job | requests per poll | delivered on first poll | missed | duplicates | goal |');
		console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
		for (const line of rows) console.log(line);
	} finally {
		Date.now = realNow;
		rmSync(userFolder, { recursive: true, force: true });
	}
}
