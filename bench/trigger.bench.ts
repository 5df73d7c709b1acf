import axios from 'axios';
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { formatUsd } from '../nodes/JobSearch/pricing';
import {
	MINUTE,
	ROW_PRICE_MICROCENTS,
	VERIFIED_CLIENTS,
	isVerifiedClient,
	runScriptedDay,
	type TimeControl,
} from '../test/trigger/scriptedDay';

/**
 * Credit of the Job Search Trigger against naive alert polling (a fixed 24h window on every poll,
 * then Remove Duplicates), over the same scripted day, on the same server, at the same poll times.
 * Both pay the reference server; the ratio is what the trigger saves.
 */
export default async function triggerBench(): Promise<void> {
	// n8n-core writes its config on first use: keep it out of the home folder, as the tests do.
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-job-search-bench-'));
	const realNow = Date.now;
	let fakeNow = realNow();
	const time: TimeControl = { set: (ms) => (fakeNow = ms) };
	Date.now = () => fakeNow;
	try {
		let naive: { id: string; key: string } | undefined;
		const naiveSeen = new Set<string>();
		let naiveStart = 0;
		const started = realNow();
		const day = await runScriptedDay({
			time,
			seed: 5,
			hours: 24,
			pollEvery: [5, 15],
			overlapMinutes: 20,
			parameters: VERIFIED_CLIENTS,
			matches: isVerifiedClient,
			live: { postingsPerHour: 40, minLagMs: MINUTE, maxLagMs: 15 * MINUTE },
			beforePoll: async (h) => {
				if (!naive) {
					naive = await h.server.admin.createAccount({ plan: 'enterprise', poolMicrocents: 10 ** 13 });
					naiveStart = h.server.admin.balance(naive.id).totalMicrocents;
				}
				const response = await axios.post(
					`${h.server.url}/v1/search_jobs`,
					{ 'client.paymentMethodVerified': true, searchPeriod: '24h', limit: 10_000 },
					{ headers: { authorization: `Bearer ${naive.key}` } },
				);
				for (const job of response.data.data.jobs as { uid: string }[]) naiveSeen.add(job.uid);
			},
		});
		const naiveRows = (naiveStart - day.h.server.admin.balance(naive!.id).totalMicrocents) / ROW_PRICE_MICROCENTS;
		await day.h.server.close();
		const rows = day.rowsPaid;
		console.log(`scripted day: ${day.polls} polls at 5-15 min, ${day.emitted.length} new matching jobs (${(realNow() - started) / 1000}s)`);
		console.log('| poller | rows paid | credit | rows per new job |');
		console.log('| --- | --- | --- | --- |');
		console.log(`| Job Search Trigger | ${rows} | ${formatUsd(rows * ROW_PRICE_MICROCENTS)} | ${(rows / day.emitted.length).toFixed(2)} |`);
		console.log(`| naive 24h window | ${naiveRows} | ${formatUsd(naiveRows * ROW_PRICE_MICROCENTS)} | ${(naiveRows / day.emitted.length).toFixed(2)} |`);
		console.log(`naive / trigger: ${(naiveRows / rows).toFixed(1)}× the credit`);
		console.log(`trigger bound: rows ≤ 1.1 × ${day.emitted.length} emitted + ${day.overlapBound} overlap re-reads = ${Math.floor(1.1 * day.emitted.length + day.overlapBound)}`);
	} finally {
		Date.now = realNow;
	}
}
