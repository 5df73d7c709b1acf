// Publishes one or more Job Search Trigger workflows (Poll Times every minute, no filter) and
// follows them: each must deliver every job posted after its activation exactly once, as one
// item, and no execution may fail. What run.sh uses it for, by its environment:
// - a workflow published while its key answers 429 (STORM_KEY: from 10 s before publishing until
//   20 s after, other clients keep that key at its rate limit and take every slot that frees, so
//   no request of the trigger gets through): it becomes active, and then carries on;
// - three workflows on one key of the Free plan (10 requests a minute) for several minutes;
// - n8n 2.41's durable scheduler, in phases (STATE_FILE keeps the activation between them, and
//   how far each phase checked: a later phase, after n8n restarted, checks that no job arrives
//   twice since activation, and that every job posted since the last phase left off arrives):
//   the activation poll
//   (ALIGN_PUBLISH publishes just after a minute starts, so the first scheduled poll comes nearly
//   a minute later, longer than the server's lag: jobs shown in between are lost if the
//   activation poll's state is), a restart that cuts a poll off, and with SLOW_LINK a while in
//   which the reference server answers so slowly that a poll not bounded by its budget would be
//   abandoned at n8n's timeout (MAIN_LOG: how many n8n abandoned is reported).
// Env: N8N_URL, OWNER_EMAIL, OWNER_PASSWORD, SERVER_URL, CHECKER_KEY, N8N_DIR, LABEL, WORKFLOWS
// (ids, comma-separated); optional STORM_KEY, STATE_FILE, ALIGN_PUBLISH, SLOW_LINK, SLOW_SECONDS,
// MAIN_LOG, MIN_SECONDS (default 200), MAX_SECONDS (default MIN_SECONDS + 150), MIN_DUE (default 5).
import { existsSync, readFileSync, writeFileSync } from 'fs';

import { login } from './n8n-api.mjs';
import { DUE_AFTER_MS, UNREAD_ACTIVATION_MAY_BRING_MS, describeMissing, rateLimitStorm, say, sleep, watchTrigger } from './trigger-watch.mjs';

const env = (name) => process.env[name] ?? (console.error(`check-triggers: ${name} is not set`), process.exit(2));
const label = env('LABEL');
const workflowIds = env('WORKFLOWS').split(',');
const serverUrl = env('SERVER_URL');
const checkerKey = env('CHECKER_KEY');
const n8nDir = env('N8N_DIR');
const minSeconds = Number(process.env.MIN_SECONDS ?? 200);
const maxSeconds = Number(process.env.MAX_SECONDS ?? minSeconds + 150);
const minDue = Number(process.env.MIN_DUE ?? 5);
const stateFile = process.env.STATE_FILE;
/** What STATE_FILE keeps: per workflow its activation, and up to when its jobs were checked. */
let activation; // workflow id -> { activatedFrom, activatedBy, checkedUntilMs?, checkingUntilMs? }
function saveState() {
	if (!stateFile || !activation) return;
	const kept = Object.fromEntries(
		Object.entries(activation).map(([id, { activatedFrom, activatedBy, checkedUntilMs, checkingUntilMs }]) => [
			id,
			{ activatedFrom, activatedBy, ...((checkingUntilMs ?? checkedUntilMs) !== undefined ? { checkedUntilMs: checkingUntilMs ?? checkedUntilMs } : {}) },
		]),
	);
	writeFileSync(stateFile, JSON.stringify(kept));
}
const fail = (message) => {
	console.error(`${label}: ${message}`);
	saveState();
	process.exit(1);
};

const api = await login(env('N8N_URL'), env('OWNER_EMAIL'), env('OWNER_PASSWORD'));
const startedMs = Date.now();

if (stateFile && existsSync(stateFile)) {
	activation = JSON.parse(readFileSync(stateFile, 'utf8'));
	say(`${label}: going on with ${workflowIds.length} workflow(s) published at ${new Date(Object.values(activation)[0].activatedBy).toISOString()}`);
} else {
	activation = {};
	const stormKey = process.env.STORM_KEY;
	let storm;
	if (stormKey) {
		const stormUntil = { ms: Number.POSITIVE_INFINITY };
		say(`${label}: keeping the workflow's key at its rate limit`);
		// Four clients at once: whenever the window frees a slot, one of them takes it first.
		storm = Promise.all([1, 2, 3, 4].map(() => rateLimitStorm(serverUrl, stormKey, stormUntil, { exact: true })));
		await sleep(10_000);
		const probe = await fetch(`${serverUrl}/v1/search_jobs`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${stormKey}` },
			body: JSON.stringify({ fromDate: '2099-01-01T00:00:00.000Z', limit: 1 }),
		});
		if (probe.status !== 429) fail(`the key answers ${probe.status} at publishing time, not 429: the storm does not hold`);
		storm.stop = async () => {
			stormUntil.ms = 0;
			const runs = await storm;
			say(`${label}: storm over: ${runs.reduce((n, r) => n + r.sent, 0)} requests, ${runs.reduce((n, r) => n + r.refused, 0)} refused with 429`);
		};
		say(`${label}: the key answers 429; publishing`);
	}
	if (process.env.ALIGN_PUBLISH) {
		const sinceMinute = Date.now() % 60_000;
		await sleep((sinceMinute < 3_000 ? 3_000 : 63_000) - sinceMinute);
		say(`${label}: publishing 3 s into a minute, nearly a minute before the first scheduled poll`);
	}
	for (const id of workflowIds) {
		const activatedFrom = Date.now();
		try {
			await api.publish(id);
		} catch (error) {
			await storm?.stop();
			fail(`workflow ${id} was not activated: ${error.message}`);
		}
		activation[id] = { activatedFrom, activatedBy: Date.now() };
		const workflow = await api.get(`/workflows/${id}`);
		if (workflow.active !== true) fail(`workflow ${id} is not active after publishing`);
		say(`${label}: workflow ${id} is active`);
	}
	if (storm) {
		await sleep(20_000);
		await storm.stop();
	}
	saveState();
}

const watchers = workflowIds.map((id) =>
	watchTrigger({
		api,
		n8nDir,
		serverUrl,
		checkerKey,
		workflowId: id,
		label: `${label} ${id}`,
		activatedFrom: activation[id].activatedFrom,
		activatedBy: activation[id].activatedBy,
		// Published under 429, on a Free key shared by three workflows, or in the durable scheduler:
		// the activation poll may have read nothing that n8n kept.
		earliestNewMs: activation[id].activatedFrom - UNREAD_ACTIVATION_MAY_BRING_MS,
	}),
);

// A while of a slow reference server: each answer's body drips in over 60 s, longer than n8n
// 2.41's poll timeout (45 s). The trigger ends its poll within getPollBudgetMs (36 s) itself; a
// poll n8n abandons instead commits nothing either. Either way no job may be lost or sent twice,
// and (a passing slowness) no execution may fail.
let slowEndMs = 0;
if (process.env.SLOW_LINK) {
	const mainLog = env('MAIN_LOG');
	const slowSeconds = Number(process.env.SLOW_SECONDS ?? 100);
	const abandoned = () => (readFileSync(mainLog, 'utf8').match(/Poll exceeded its timeout and was abandoned/g) ?? []).length;
	const before = abandoned();
	await fetch(`${process.env.SLOW_LINK}/slow-link/slow?seconds=${slowSeconds}&bodyMs=60000`, { method: 'POST' });
	say(`${label}: the reference server answers slowly for ${slowSeconds} s (each body over 60 s)`);
	for (const endMs = Date.now() + slowSeconds * 1000; Date.now() < endMs; await sleep(5_000)) {
		try {
			await Promise.all(watchers.map((w) => w.update()));
		} catch (error) {
			fail(error.message);
		}
	}
	await fetch(`${process.env.SLOW_LINK}/slow-link/normal`, { method: 'POST' });
	slowEndMs = Date.now();
	say(`${label}: the server is fast again; n8n abandoned ${abandoned() - before} poll(s) at its timeout meanwhile`);
}

const done = new Set();
try {
	for (;;) {
		await sleep(10_000);
		const elapsed = (Date.now() - startedMs) / 1000;
		for (const [i, watcher] of watchers.entries()) {
			for (const { id, jobs } of await watcher.update()) say(`${label} ${workflowIds[i]}: execution ${id}: ${jobs} jobs`);
			const checkedFromMs = activation[workflowIds[i]].checkedUntilMs ?? activation[workflowIds[i]].activatedBy;
			const { due, missing } = await watcher.due(Date.now(), checkedFromMs);
			activation[workflowIds[i]].checkingUntilMs = Date.now() - DUE_AFTER_MS;
			const settled = elapsed >= minSeconds && Date.now() > slowEndMs + DUE_AFTER_MS && missing.length === 0 && due.length >= minDue;
			if (settled && !done.has(i)) {
				done.add(i);
				say(`${label} ${workflowIds[i]}: all ${due.length} jobs due by now arrived once each (${watcher.received.size} in all, ${watcher.read.size} executions)`);
			}
			if (!settled) done.delete(i);
			if (elapsed > maxSeconds && !settled) {
				fail(`workflow ${workflowIds[i]}: after ${elapsed.toFixed(0)} s, ${missing.length} of ${due.length} jobs due never arrived: ${describeMissing(missing)}`);
			}
		}
		if (done.size === watchers.length) break;
	}
} catch (error) {
	fail(error.message);
}
saveState();
say(`${label}: ok, no execution failed`);
