// Queue mode, against n8n main + one worker on Redis and a reference server in fast live mode:
// 1. a published webhook workflow (Webhook -> Search Jobs -> Get Job) answers with the jobs, and
//    its execution ran on the worker;
// 2. a published Job Search Trigger polling every minute (the polls run on main) delivers every
//    job posted after its activation exactly once, as one item, and none of the jobs that were
//    already visible when it was activated;
// 3. a 429 storm: for a while another client keeps the trigger's key at its rate limit, so its
//    polls meet 429s with Retry-After; every job still arrives once, as one item;
// 4. no execution of either workflow failed, the storm's polls included: a passing 429 is no failure.
// Configured by environment variables set in run.sh.
import { readFileSync } from 'fs';
import { login } from './n8n-api.mjs';
import { describeMissing, rateLimitStorm, say, sleep, watchTrigger } from './trigger-watch.mjs';

const env = (name) => process.env[name] ?? (console.error(`check-queue: ${name} is not set`), process.exit(2));
const n8nUrl = env('N8N_URL');
const serverUrl = env('SERVER_URL');
const checkerKey = env('CHECKER_KEY');
const n8nDir = env('N8N_DIR');
const mainLog = env('MAIN_LOG');
const workerLog = env('WORKER_LOG');
const [triggerId, webhookId] = [env('TRIGGER_WORKFLOW'), env('WEBHOOK_WORKFLOW')];
const triggerKey = env('TRIGGER_KEY');
// The trigger's credential reaches the server through slow-link.mjs, which counts its answers.
const triggerLink = env('TRIGGER_LINK');
const minSeconds = Number(process.env.TRIGGER_MIN_SECONDS ?? 200);
// The storm: from 60 s after activation, for 90 s, the trigger's key is kept at its rate limit.
const STORM_FROM_S = 60;
const STORM_FOR_S = 90;
const maxSeconds = Number(process.env.TRIGGER_MAX_SECONDS ?? 330);

function fail(message) {
	console.error(`queue mode: ${message}`);
	process.exit(1);
}

const api = await login(n8nUrl, env('OWNER_EMAIL'), env('OWNER_PASSWORD'));

// 1. Webhook on the worker.
await api.publish(webhookId);
// n8n 2.41 registers the webhook a moment after the publication settles: a 404 meanwhile.
let hook;
for (const deadline = Date.now() + 60_000; ; await sleep(1_000)) {
	hook = await fetch(`${n8nUrl}/webhook/job-search-e2e`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
	if (hook.status !== 404 || Date.now() > deadline) break;
	await hook.text();
}
const hookText = await hook.text();
if (!hook.ok) {
	// Say why: the error n8n recorded on the failed execution (a 500 says only "Error in workflow").
	const [last] = await api.executions(webhookId).catch(() => []);
	const run = last && (await api.execution(last.id, n8nDir).catch(() => undefined));
	const error = run?.data?.resultData?.error;
	const why = error ? `; execution ${last.id}: ${error.message} (node ${error.node?.name ?? 'none'}, ${String(error.description ?? '').slice(0, 300)})` : '';
	fail(`webhook answered ${hook.status}: ${hookText.slice(0, 500)}${why}`);
}
const hookItems = [JSON.parse(hookText)].flat();
if (hookItems.length !== 2 || hookItems.some((job) => typeof job.uid !== 'string' || typeof job.description !== 'string')) {
	fail(`webhook: expected the 2 jobs of Get Job, got ${hookText.slice(0, 500)}`);
}
const [hookExecution] = await api.executions(webhookId);
if (!hookExecution) fail('webhook: no execution recorded');
say(`webhook: ${hookItems.length} jobs from Get Job (execution ${hookExecution.id}, ${hookExecution.status})`);

// 2. Trigger polling on main.
const activatedFrom = Date.now();
await api.publish(triggerId);
const activatedBy = Date.now();
const stormFromMs = activatedFrom + STORM_FROM_S * 1000;
const stormToMs = stormFromMs + STORM_FOR_S * 1000;
const storm = sleep(STORM_FROM_S * 1000).then(async () => {
	say(`429 storm: the trigger's key is kept at its rate limit for ${STORM_FOR_S} s`);
	// Four clients at once: whenever the window frees a slot, one of them takes it first.
	const runs = await Promise.all([1, 2, 3, 4].map(() => rateLimitStorm(serverUrl, triggerKey, stormToMs)));
	const sent = runs.reduce((n, r) => n + r.sent, 0);
	const refused = runs.reduce((n, r) => n + r.refused, 0);
	say(`429 storm over: ${sent} requests, ${refused} of them refused with 429`);
});
say(`trigger published; waiting at least ${minSeconds} s for its polls`);
const trigger = watchTrigger({ api, n8nDir, serverUrl, checkerKey, workflowId: triggerId, label: 'trigger', activatedFrom, activatedBy });
try {
	for (;;) {
		await sleep(10_000);
		const elapsed = (Date.now() - activatedFrom) / 1000;
		for (const { id, jobs } of await trigger.update()) say(`trigger execution ${id}: ${jobs} jobs`);
		const { due, missing } = await trigger.due();
		if (elapsed >= minSeconds && Date.now() > stormToMs + 60_000 && missing.length === 0 && due.length >= 5) {
			say(`trigger: all ${due.length} jobs due by now arrived once each (${trigger.received.size} in all, ${trigger.read.size} executions, ${elapsed.toFixed(0)} s)`);
			break;
		}
		if (elapsed > maxSeconds) fail(`after ${elapsed.toFixed(0)} s, ${missing.length} of ${due.length} jobs due never arrived: ${describeMissing(missing)}`);
	}
} catch (error) {
	fail(error.message);
}

await storm;
// 3. The storm reached the trigger: the link its credential goes through passed 429s back to it,
// and no execution failed for them.
const { answered } = await (await fetch(`${triggerLink}/slow-link/stats`)).json();
if (!(answered['429'] > 0)) fail(`the 429 storm never reached the trigger: its requests were answered ${JSON.stringify(answered)}`);
say(`429 storm: the trigger's requests met ${answered['429']} 429s (of ${Object.values(answered).reduce((a, b) => a + b, 0)}); no execution failed; every job still arrived once`);

// 4. Nothing failed; the trigger polled on main and the executions ran on the worker.
const executions = await api.executions(triggerId);
for (const execution of [...(await api.executions(webhookId)), ...executions]) {
	if (!['success', 'running', 'new'].includes(execution.status)) fail(`execution ${execution.id} of workflow ${execution.workflowId}: ${execution.status}`);
}
const main = readFileSync(mainLog, 'utf8');
const worker = readFileSync(workerLog, 'utf8');
// A poll's log line names its workflow, so two alert workflows can be told apart.
const pollLine = /Job Search Trigger \[workflow "[^"]+"\]: \d+ new jobs/;
if (!pollLine.test(main)) fail('main logged no Job Search Trigger poll naming its workflow');
// A "Fetch Test Event" from the editor is a manual execution, which queue mode runs on the worker
// (its log line reads "…]: test: …"); a scheduled poll must not be.
if (/Job Search Trigger \[[^\n]*\]: (?!test:)/.test(worker)) fail('the worker ran a Job Search Trigger poll: polls belong on main');
for (const id of [hookExecution.id, ...trigger.read]) {
	if (!new RegExp(`execution[^\\n]*\\b${id}\\b`, 'i').test(worker)) fail(`execution ${id} does not appear in the worker's log`);
}
say(`no failed executions; the trigger polled on main; ${trigger.read.size + 1} executions ran on the worker`);
