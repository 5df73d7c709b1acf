// n8n's own credential test, as the editor's "Retry" / save button runs it: POST /rest/credentials/test
// against the imported "Job Search API" credential with the data a user might type, and the text
// the dialog would show. n8n 2.8.4's tester applies `responseCode` rules only to errors carrying
// the axios response, so this checks the real thing, not the harness's copy of the tester.
// Then a workflow with an HTTP Request node that uses the credential ("Predefined Credential
// Type"): n8n 2.41 refuses to save it (the credential is restricted to this package's nodes);
// n8n 2.8 knows no such restriction and saves it.
// Env: N8N_URL, OWNER_EMAIL, OWNER_PASSWORD, SERVER_URL, API_KEY (the credential's good key), N8N_LINE.
import { createServer } from 'http';
import { createRequire } from 'module';

import { login } from './n8n-api.mjs';

// The texts a user must see are the credential's own (one source): read them from the build.
const { JobSearchApi } = createRequire(import.meta.url)('../../dist/credentials/JobSearchApi.credentials.js');
const rules = new JobSearchApi().test.rules;
const ruleMessage = (errorCode) => rules.find((rule) => rule.properties.value === errorCode).properties.message;

const { N8N_URL, OWNER_EMAIL, OWNER_PASSWORD, SERVER_URL, API_KEY } = process.env;
const CREDENTIAL = { id: 'jobSearchLocal', name: 'Job Search API (reference server)', type: 'jobSearchApi' };

/** A host that serves a web page for every request, as a Base URL pointing at a website does. */
async function startWebsite() {
	const server = createServer((_req, res) => {
		res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
		res.end('<!DOCTYPE html><html><head><title>Welcome</title></head><body>Our website</body></html>');
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

const n8n = await login(N8N_URL, OWNER_EMAIL, OWNER_PASSWORD);
const website = await startWebsite();
const cases = [
	['a good key', { apiKey: API_KEY, baseUrl: SERVER_URL }, { status: 'OK', message: 'Connection successful!' }],
	[
		'a wrong key',
		{ apiKey: 'gm_dGhpc2lzYW5leGFtcGxla2V5', baseUrl: SERVER_URL },
		{ status: 'Error', message: ruleMessage('invalid_key') },
	],
	[
		'a Base URL with /v1',
		{ apiKey: API_KEY, baseUrl: `${SERVER_URL}/v1` },
		{ status: 'Error', message: ruleMessage('not_found') },
	],
	[
		'a Base URL that serves a web page',
		{ apiKey: API_KEY, baseUrl: website.url },
		{ status: 'Error', message: ruleMessage(undefined) },
	],
];
let failed = 0;
try {
	for (const [name, data, expected] of cases) {
		const shown = await n8n.post('/credentials/test', { credentials: { ...CREDENTIAL, data } });
		const ok = shown?.status === expected.status && shown?.message === expected.message;
		if (!ok) failed++;
		const said = JSON.stringify(shown ?? null);
		console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${said}${ok ? '' : ` (expected ${JSON.stringify(expected)})`}`);
		if (said.includes(API_KEY)) {
			failed++;
			console.log(`FAIL ${name}: the answer holds the API key`);
		}
	}
} finally {
	await website.close();
}
const httpRequest = {
	name: 'Job Search e2e: the credential in an HTTP Request node',
	nodes: [
		{ id: 'm1', name: 'Manual', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'h1',
			name: 'HTTP Request',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: [220, 0],
			parameters: { method: 'POST', url: `${SERVER_URL}/v1/search_jobs`, authentication: 'predefinedCredentialType', nodeCredentialType: 'jobSearchApi' },
			credentials: { jobSearchApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
		},
	],
	connections: { Manual: { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] } },
	settings: {},
};
const saved = await n8n.post('/workflows', httpRequest).then(
	(workflow) => ({ ok: true, id: workflow.id }),
	(error) => ({ ok: false, message: error.message }),
);
if (process.env.N8N_LINE === '2.41') {
	const refused = !saved.ok && /cannot use credential type \\?"jobSearchApi\\?"/.test(saved.message);
	if (!refused) failed++;
	console.log(`${refused ? 'ok  ' : 'FAIL'} n8n 2.41 refuses an HTTP Request node with the credential: ${saved.ok ? `saved as ${saved.id}` : saved.message.slice(0, 300)}`);
} else {
	console.log(`info n8n ${process.env.N8N_LINE} has no restriction to supported nodes: the HTTP Request workflow ${saved.ok ? 'was saved' : `was refused: ${saved.message.slice(0, 200)}`}`);
}
if (failed > 0) process.exit(1);
