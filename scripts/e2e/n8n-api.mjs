// A logged-in client of n8n's own REST API (/rest/*), as the editor uses it: the auth cookie is
// tied to the browser-id header, so every request sends the same one.
import { createRequire } from 'module';

export async function login(baseUrl, email, password) {
	const browserId = 'job-search-e2e';
	const response = await fetch(`${baseUrl}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': browserId },
		body: JSON.stringify({ emailOrLdapLoginId: email, password }),
	});
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
		/** Publishes (activates) a workflow, as the editor's Publish button does. */
		async publish(workflowId) {
			const workflow = await call('GET', `/workflows/${workflowId}`);
			return await call('POST', `/workflows/${workflowId}/activate`, { versionId: workflow.versionId });
		},
		async executions(workflowId) {
			const filter = encodeURIComponent(JSON.stringify({ workflowId }));
			const { results } = await call('GET', `/executions?filter=${filter}&limit=250`);
			return results;
		},
		/** One execution with its run data, parsed from n8n's flatted storage format. */
		async execution(id, n8nDir) {
			const execution = await call('GET', `/executions/${id}`);
			const { parse } = createRequire(`${n8nDir}/node_modules/n8n/package.json`)('flatted');
			return { ...execution, data: typeof execution.data === 'string' ? parse(execution.data) : execution.data };
		},
	};
}
