// Queue mode, against n8n main + one worker on Redis and a reference server in fast live mode:
// 1. a published webhook workflow (Webhook -> Search Jobs -> Get Job) answers with the jobs, and
//    its execution ran on the worker;
// 2. a published Job Search Trigger polling every minute (the polls run on main) delivers every
//    job posted after its activation exactly once, as one item, and none of the jobs that were
//    already visible when it was activated;
// 3. a 429 storm: for a while another client keeps the trigger's key at its rate limit, so its
//    polls meet 429s with Retry-After and may fail; every job still arrives once;
// 4. no execution of either workflow failed, except trigger polls failed by that rate limit.
// Configured by environment variables set in run.sh.
import { readFileSync } from 'fs';
import { login } from './n8n-api.mjs';

const env = (name) => process.env[name] ?? (console.error(`check-queue: ${name} is not set`), process.exit(2));
const n8nUrl = env('N8N_URL');
const serverUrl = env('SERVER_URL');
const checkerKey = env('CHECKER_KEY');
const n8nDir = env('N8N_DIR');
const mainLog = env('MAIN_LOG');
const workerLog = env('WORKER_LOG');
const [triggerId, webhookId] = [env('TRIGGER_WORKFLOW'), env('WEBHOOK_WORKFLOW')];
const triggerKey = env('TRIGGER_KEY');
const minSeconds = Number(process.env.TRIGGER_MIN_SECONDS ?? 200);
// The storm: from 60 s after activation, for 90 s, the trigger's key is kept at its rate limit.
const STORM_FROM_S = 60;
const STORM_FOR_S = 90;
const maxSeconds = Number(process.env.TRIGGER_MAX_SECONDS ?? 330);
// The server's --live-fast lag is 20 s, in posting order; polls run every minute; an execution takes seconds.
const MAX_LAG_MS = 20_000;
const DUE_AFTER_MS = MAX_LAG_MS + 60_000 + 15_000;

const say = (message) => console.log(`[${new Date().toISOString().slice(11, 19)}]   ${message}`);
function fail(message) {
	console.error(`queue mode: ${message}`);
	process.exit(1);
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function serverJobs(fromMs) {
	const response = await fetch(`${serverUrl}/v1/search_jobs`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${checkerKey}` },
		body: JSON.stringify({ fromDate: new Date(fromMs).toISOString(), limit: 10000 }),
	});
	if (!response.ok) fail(`reference server search: ${response.status} ${await response.text()}`);
	return (await response.json()).data.jobs;
}

const api = await login(n8nUrl, env('OWNER_EMAIL'), env('OWNER_PASSWORD'));

// 1. Webhook on the worker.
await api.publish(webhookId);
const hook = await fetch(`${n8nUrl}/webhook/job-search-e2e`, {
	method: 'POST',
	headers: { 'content-type': 'application/json' },
	body: '{}',
});
const hookText = await hook.text();
if (!hook.ok) fail(`webhook answered ${hook.status}: ${hookText.slice(0, 500)}`);
const hookItems = [JSON.parse(hookText)].flat();
if (hookItems.length !== 2 || hookItems.some((job) => typeof job.uid !== 'string' || typeof job.description !== 'string')) {
	fail(`webhook: expected the 2 jobs of Get Job, got ${hookText.slice(0, 500)}`);
}
const [hookExecution] = await api.executions(webhookId);
if (!hookExecution) fail('webhook: no execution recorded');
say(`webhook: ${hookItems.length} jobs from Get Job (execution ${hookExecution.id}, ${hookExecution.status})`);

/**
 * Keeps the trigger's key at its rate limit until `untilMs`: requests for a window in the future
 * (no row, no cost), sent as fast as the server accepts them, each 429 waited out as asked.
 */
async function rateLimitStorm(untilMs) {
	let sent = 0;
	let refused = 0;
	while (Date.now() < untilMs) {
		const response = await fetch(`${serverUrl}/v1/search_jobs`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${triggerKey}` },
			body: JSON.stringify({ fromDate: '2099-01-01T00:00:00.000Z', limit: 1 }),
		});
		const body = await response.json();
		sent++;
		if (response.status === 429) {
			refused++;
			await sleep(Math.min(body.retryAfterMs ?? 1000, Math.max(0, untilMs - Date.now())) * Math.random());
		}
	}
	return { sent, refused };
}

// 2. Trigger polling on main.
const activatedFrom = Date.now();
await api.publish(triggerId);
const activatedBy = Date.now();
const stormFromMs = activatedFrom + STORM_FROM_S * 1000;
const stormToMs = stormFromMs + STORM_FOR_S * 1000;
const storm = sleep(STORM_FROM_S * 1000).then(async () => {
	say(`429 storm: the trigger's key is kept at its rate limit for ${STORM_FOR_S} s`);
	// Four clients at once: whenever the window frees a slot, one of them takes it first.
	const runs = await Promise.all([1, 2, 3, 4].map(() => rateLimitStorm(stormToMs)));
	const sent = runs.reduce((n, r) => n + r.sent, 0);
	const refused = runs.reduce((n, r) => n + r.refused, 0);
	say(`429 storm over: ${sent} requests, ${refused} of them refused with 429`);
});
/** A poll that started in the storm (or within a poll of its end) may fail on the rate limit. */
const inStorm = (execution) => {
	const started = Date.parse(execution.startedAt ?? execution.createdAt ?? '');
	return started >= stormFromMs && started <= stormToMs + 60_000;
};
let stormFailures = 0;
say(`trigger published; waiting at least ${minSeconds} s for its polls`);
const received = new Map(); // uid -> execution ids
const read = new Set();
let executions = [];
for (;;) {
	await sleep(10_000);
	const elapsed = (Date.now() - activatedFrom) / 1000;
	executions = await api.executions(triggerId);
	for (const execution of executions) {
		if (read.has(execution.id)) continue;
		if (execution.status === 'error' && inStorm(execution)) {
			read.add(execution.id);
			stormFailures++;
			say(`trigger execution ${execution.id}: a poll failed in the 429 storm`);
			continue;
		}
		if (['error', 'crashed', 'canceled'].includes(execution.status)) fail(`trigger execution ${execution.id} ${execution.status}`);
		if (execution.status !== 'success') continue;
		read.add(execution.id);
		const { data } = await api.execution(execution.id, n8nDir);
		const items = data.resultData.runData['Job Search Trigger']?.[0]?.data?.main?.[0] ?? [];
		for (const { json } of items) {
			if (typeof json.uid !== 'string') fail(`trigger execution ${execution.id} emitted an item without uid`);
			if (received.has(json.uid)) fail(`job ${json.uid} arrived twice (executions ${received.get(json.uid)} and ${execution.id})`);
			received.set(json.uid, execution.id);
		}
		say(`trigger execution ${execution.id}: ${items.length} jobs`);
	}
	const jobs = await serverJobs(activatedFrom - 10 * 60_000);
	const known = new Map(jobs.map((job) => [job.uid, Date.parse(job.createdAt)]));
	for (const [uid, execution] of received) {
		const created = known.get(uid);
		if (created === undefined) fail(`execution ${execution} emitted ${uid}, which was posted long before activation`);
		if (created < activatedFrom - MAX_LAG_MS - 1_000) {
			fail(`execution ${execution} emitted ${uid}, posted ${new Date(created).toISOString()}: visible before activation, so not new`);
		}
	}
	const due = jobs.filter((job) => {
		const created = Date.parse(job.createdAt);
		return created > activatedBy && created <= Date.now() - DUE_AFTER_MS;
	});
	const missing = due.filter((job) => !received.has(job.uid));
	if (elapsed >= minSeconds && Date.now() > stormToMs + 60_000 && missing.length === 0 && due.length >= 5) {
		say(`trigger: all ${due.length} jobs due by now arrived once each (${received.size} in all, ${read.size} executions, ${elapsed.toFixed(0)} s)`);
		break;
	}
	if (elapsed > maxSeconds) {
		fail(`after ${elapsed.toFixed(0)} s, ${missing.length} of ${due.length} jobs due never arrived: ${missing.map((j) => `${j.uid} (${j.createdAt})`).join(', ')}`);
	}
}

await storm;
const main = readFileSync(mainLog, 'utf8');
// 3. The storm reached the trigger: its polls met 429s (waited out, or failed).
// A poll that waited a 429 out says so in its log line; one that could not wait failed.
const waitedOut = (main.match(/rate limits? \(429\) waited out/g) ?? []).length;
if (waitedOut === 0 && stormFailures === 0) fail('the 429 storm never reached the trigger');
say(`429 storm: ${waitedOut} polls waited a 429 out, ${stormFailures} failed on the rate limit; every job still arrived once`);

// 4. Nothing else failed; the trigger polled on main and the executions ran on the worker.
for (const execution of [...(await api.executions(webhookId)), ...executions]) {
	if (execution.status === 'error' && execution.workflowId === triggerId && inStorm(execution)) continue;
	if (!['success', 'running', 'new'].includes(execution.status)) fail(`execution ${execution.id} of workflow ${execution.workflowId}: ${execution.status}`);
}
const worker = readFileSync(workerLog, 'utf8');
// A poll's log line names its workflow, so two alert workflows can be told apart.
const pollLine = /Job Search Trigger \[workflow "[^"]+"\]: \d+ new jobs/;
if (!pollLine.test(main)) fail('main logged no Job Search Trigger poll naming its workflow');
// A "Fetch Test Event" from the editor is a manual execution, which queue mode runs on the worker
// (its log line reads "…]: test: …"); a scheduled poll must not be.
if (/Job Search Trigger \[[^\n]*\]: (?!test:)/.test(worker)) fail('the worker ran a Job Search Trigger poll: polls belong on main');
for (const id of [hookExecution.id, ...[...read].filter((id) => !executions.some((e) => e.id === id && e.status === 'error'))]) {
	if (!new RegExp(`execution[^\\n]*\\b${id}\\b`, 'i').test(worker)) fail(`execution ${id} does not appear in the worker's log`);
}
say(`no failed executions; the trigger polled on main; ${read.size + 1} executions ran on the worker`);
