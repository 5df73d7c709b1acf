// n8n's own credential test, as the editor's "Retry" / save button runs it: POST /rest/credentials/test
// against the imported "Job Search API" credential with the data a user might type, and the text
// the dialog would show. n8n 2.8.4's tester applies `responseCode` rules only to errors carrying
// the axios response, so this checks the real thing, not the harness's copy of the tester.
// Env: N8N_URL, OWNER_EMAIL, OWNER_PASSWORD, SERVER_URL, API_KEY (the credential's good key).
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
// The imported credential still holds an "mcpUrl" the credential no longer has: it must keep working.
const cases = [
	['a good key', { apiKey: API_KEY, baseUrl: SERVER_URL, mcpUrl: `${SERVER_URL}/mcp` }, { status: 'OK', message: 'Connection successful!' }],
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
if (failed > 0) process.exit(1);
