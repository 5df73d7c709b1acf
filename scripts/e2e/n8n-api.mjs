// A logged-in client of n8n's own REST API (/rest/*), as the editor uses it: the auth cookie is
// tied to the browser-id header, so every request sends the same one.
import { createRequire } from 'module';

export async function login(baseUrl, email, password) {
	const browserId = 'job-search-e2e';
	// n8n answers /healthz before it has registered its REST routes (a 404 meanwhile) and, after a
	// restart on the same user folder, before its database is ready (a 503 meanwhile).
	let response;
	for (const deadline = Date.now() + 60_000; ; await new Promise((resolve) => setTimeout(resolve, 500))) {
		response = await fetch(`${baseUrl}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'browser-id': browserId },
			body: JSON.stringify({ emailOrLdapLoginId: email, password }),
		});
		if ((response.status !== 404 && response.status !== 503) || Date.now() > deadline) break;
		await response.text();
	}
	if (!response.ok) throw new Error(`n8n login failed: ${response.status} ${await response.text()}`);
	const cookie = response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
	const call = async (method, path, body) => {
		const res = await fetch(`${baseUrl}/rest${path}`, {
			method,
			headers: { 'content-type': 'application/json', 'browser-id': browserId, cookie },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} /rest${path}: ${res.status} ${text.slice(0, 500)}`);
		return JSON.parse(text).data;
	};
	return {
		get: (path) => call('GET', path),
		post: (path, body) => call('POST', path, body ?? {}),
		/**
		 * Publishes (activates) a workflow, as the editor's Publish button does, and resolves once it
		 * is live. n8n 2.8 activates within the request (its activation poll included) and answers
		 * with an error when that fails; n8n 2.41 publishes in the background (POST answers at once,
		 * webhooks answer 404 meanwhile) and reports the outcome at /publication-status.
		 */
		async publish(workflowId, { timeoutMs = 120_000 } = {}) {
			const workflow = await call('GET', `/workflows/${workflowId}`);
			const activated = await call('POST', `/workflows/${workflowId}/activate`, { versionId: workflow.versionId });
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const status = await call('GET', `/workflows/${workflowId}/publication-status`).catch((error) => {
					if (/: 404 /.test(error.message)) return undefined; // n8n 2.8: published within the request
					throw error;
				});
				if (status === undefined || status.status === 'published') return activated;
				if (status.status === 'failed' || status.status === 'partial') {
					const why = status.triggers.filter((t) => t.status === 'failed').map((t) => t.errorMessage).join('; ');
					throw new Error(`publishing workflow ${workflowId}: ${status.status}: ${why}`);
				}
				if (Date.now() > deadline) throw new Error(`publishing workflow ${workflowId}: still ${status.status} after ${timeoutMs / 1000} s`);
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		},
		/** Every execution of a workflow, newest first (n8n 2.41 serves at most 100 a page). */
		async executions(workflowId) {
			const filter = encodeURIComponent(JSON.stringify({ workflowId }));
			const all = [];
			for (let lastId; ; ) {
				const { results } = await call('GET', `/executions?filter=${filter}&limit=100${lastId ? `&lastId=${lastId}` : ''}`);
				all.push(...results);
				if (results.length < 100) return all;
				lastId = results[results.length - 1].id;
			}
		},
		/** One execution with its run data, parsed from n8n's flatted storage format. */
		async execution(id, n8nDir) {
			const execution = await call('GET', `/executions/${id}`);
			const { parse } = createRequire(`${n8nDir}/node_modules/n8n/package.json`)('flatted');
			return { ...execution, data: typeof execution.data === 'string' ? parse(execution.data) : execution.data };
		},
	};
}
