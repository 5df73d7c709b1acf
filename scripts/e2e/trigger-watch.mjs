// What every trigger check asks of a published Job Search Trigger workflow (no filter, Poll Times
// every minute, the reference server in fast live mode): every job posted after its activation
// arrives exactly once, as one item; none that was already visible when it was activated (unless
// the activation poll read nothing n8n kept: then none posted long before); and no execution fails. Shared by check-queue.mjs, check-shared-key.mjs and check-durable.mjs.

// The server's --live-fast lag is 20 s, in posting order; polls run every minute; an execution takes seconds.
export const MAX_LAG_MS = 20_000;
export const DUE_AFTER_MS = MAX_LAG_MS + 60_000 + 15_000;

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const say = (message) => console.log(`[${new Date().toISOString().slice(11, 19)}]   ${message}`);

/** Every job the server shows from `fromMs` on, read with the checker's own key (never the trigger's). */
export async function serverJobs(serverUrl, checkerKey, fromMs) {
	const response = await fetch(`${serverUrl}/v1/search_jobs`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${checkerKey}` },
		body: JSON.stringify({ fromDate: new Date(fromMs).toISOString(), limit: 10000 }),
	});
	if (!response.ok) throw new Error(`reference server search: ${response.status} ${await response.text()}`);
	return (await response.json()).data.jobs;
}

/**
 * Follows one trigger workflow from its activation (`activatedFrom`: just before publishing,
 * `activatedBy`: once it was live). `update()` reads the executions not read yet and throws at
 * the first job that arrives twice, a job that was not new, or an execution that did not succeed.
 */
/**
 * A trigger whose activation poll could not read (a 429 at publishing, or n8n 2.41's durable
 * scheduler, which keeps nothing of it) also sends jobs posted in the index's usual delay (15
 * minutes) before the activation it counts from (durable: a minute's interval and five minutes
 * before its first scheduled poll): nothing tells them from jobs the index showed only since.
 */
export const UNREAD_ACTIVATION_MAY_BRING_MS = (15 + 1 + 5 + 1) * 60_000;

export function watchTrigger({
	api,
	n8nDir,
	serverUrl,
	checkerKey,
	workflowId,
	label,
	activatedFrom,
	activatedBy,
	nodeName = 'Job Search Trigger',
	earliestNewMs = activatedFrom - MAX_LAG_MS - 1_000,
}) {
	const received = new Map(); // uid -> execution id
	const read = new Set();
	const fail = (message) => {
		throw new Error(`${label}: ${message}`);
	};
	return {
		received,
		read,
		/** Reads new executions; returns how many jobs each new one brought. */
		async update() {
			const executions = await api.executions(workflowId);
			const brought = [];
			for (const execution of executions.slice().reverse()) {
				if (read.has(execution.id)) continue;
				if (['error', 'crashed', 'canceled'].includes(execution.status)) {
					const { data } = await api.execution(execution.id, n8nDir).catch(() => ({ data: undefined }));
					fail(`execution ${execution.id} ${execution.status}: ${data?.resultData?.error?.message ?? 'no message'}`);
				}
				if (execution.status !== 'success') continue;
				read.add(execution.id);
				const { data } = await api.execution(execution.id, n8nDir);
				const items = data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? [];
				for (const { json } of items) {
					if (typeof json.uid !== 'string') fail(`execution ${execution.id} emitted an item without uid`);
					if (received.has(json.uid)) fail(`job ${json.uid} arrived twice (executions ${received.get(json.uid)} and ${execution.id})`);
					received.set(json.uid, execution.id);
				}
				brought.push({ id: execution.id, jobs: items.length });
			}
			return brought;
		},
		/**
		 * Jobs posted after activation (or after `fromMs`, where an earlier check left off) and old
		 * enough to be due by now, and those of them not received.
		 */
		async due(nowMs = Date.now(), fromMs = activatedBy) {
			const jobs = await serverJobs(serverUrl, checkerKey, Math.min(activatedFrom, earliestNewMs) - 10 * 60_000);
			const created = new Map(jobs.map((job) => [job.uid, Date.parse(job.createdAt)]));
			for (const [uid, execution] of received) {
				const at = created.get(uid);
				if (at === undefined) fail(`execution ${execution} emitted ${uid}, which was posted long before activation`);
				if (at < earliestNewMs) {
					fail(`execution ${execution} emitted ${uid}, posted ${new Date(at).toISOString()}: visible before activation, so not new`);
				}
			}
			const due = jobs.filter((job) => {
				const at = Date.parse(job.createdAt);
				return at > fromMs && at <= nowMs - DUE_AFTER_MS;
			});
			return { due, missing: due.filter((job) => !received.has(job.uid)) };
		},
	};
}

/**
 * Keeps a key at its rate limit until `until` (a moment in ms, or an object whose `ms` the caller
 * may move to end the storm early): requests for a window in the future (no row, no cost), sent
 * as fast as the server accepts them. After a 429 each client waits a random share of the wait the
 * server asked for, so a client that waits out its 429 as asked gets a slot now and then; with
 * `exact`, each waits exactly what the server asked for, and so is always first to the slot that
 * frees (a client that adds any cushion to the wait never gets one).
 */
export async function rateLimitStorm(serverUrl, key, until, { exact = false } = {}) {
	const untilMs = () => (typeof until === 'number' ? until : until.ms);
	let sent = 0;
	let refused = 0;
	while (Date.now() < untilMs()) {
		const response = await fetch(`${serverUrl}/v1/search_jobs`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
			body: JSON.stringify({ fromDate: '2099-01-01T00:00:00.000Z', limit: 1 }),
		});
		const body = await response.json();
		sent++;
		if (response.status === 429) {
			refused++;
			const waitMs = (body.retryAfterMs ?? 1000) * (exact ? 1 : Math.random());
			for (const end = Date.now() + waitMs; Date.now() < Math.min(end, untilMs()); ) await sleep(Math.min(200, end - Date.now()));
		}
	}
	return { sent, refused };
}

export const describeMissing = (missing) => missing.map((j) => `${j.uid} (${j.createdAt})`).join(', ');
