import { testCredential } from '../harness';
import { JobSearchApi } from '../../credentials/JobSearchApi.credentials';
import { useTestService } from '../support/service';
import { answer, startOtherHost, startRedirectingFront, startScriptedHost } from '../support/hosts';

const service = useTestService();

const WRONG_KEY_MESSAGE = 'The API key is missing, wrong or revoked. Paste a current key (it starts with gm_) from the dashboard.';
const NOT_THE_SERVICE = /^The Base URL does not answer as the Job Search service/;

describe('the Job Search API credential test', () => {
	it('passes for a good key at the Base URL and spends no credit', async () => {
		const { id, credentials } = await service.account('free');
		const before = service.server.admin.balance(id);
		expect(await testCredential(credentials)).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(service.server.admin.balance(id)).toEqual(before);
		expect(service.server.admin.callLog(id).map((c) => [c.tool, c.status, c.consumedMicrocents])).toEqual([['get_job', 400, 0]]);
	});

	it('calls the Base URL the node calls', async () => {
		const { credentials } = await service.account('free');
		const host = await startScriptedHost((_req, res) => answer(res, 400, { error: 'jobUid is required', error_code: 'validation_error' }));
		try {
			const result = await testCredential({ ...credentials, baseUrl: host.url });
			expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
			expect(host.requests().map((r) => [r.method, r.url, r.authorization])).toEqual([['POST', '/v1/get_job', `Bearer ${credentials.apiKey}`]]);
		} finally {
			await host.close();
		}
	});

	it.each([
		['a wrong key', async () => 'gm_dGhpc2lzYW5leGFtcGxla2V5'],
		[
			'a revoked key',
			async () => {
				const { key } = await service.account('pro');
				await service.server.admin.revokeKey(key);
				return key;
			},
		],
	])('fails for %s with the credential’s own message, as n8n 2.8 shows it in the dialog', async (_name, keyOf) => {
		const { credentials } = await service.account('free');
		const apiKey = await keyOf();
		expect(await testCredential({ ...credentials, apiKey })).toEqual({ status: 'Error', message: WRONG_KEY_MESSAGE });
	});

	it('fails for a Base URL that ends in /v1, saying to remove the path', async () => {
		const { credentials } = await service.account('free');
		const result = await testCredential({ ...credentials, baseUrl: `${service.server.url}/v1` });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The Base URL reaches the service, but not its tools: remove any path/);
	});

	it.each([
		['a web page', 200, '<!DOCTYPE html><html><body>Welcome</body></html>'],
		['an empty object', 200, {}],
		['a 404 page of another site', 404, '<html>Not Found</html>'],
		['a 403 of a firewall', 403, { message: 'Forbidden' }],
	])('fails for a Base URL that answers with %s', async (_name, status, body) => {
		const { credentials } = await service.account('free');
		const host = await startScriptedHost((_req, res) => answer(res, status, body));
		try {
			const result = await testCredential({ ...credentials, baseUrl: host.url });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(NOT_THE_SERVICE);
		} finally {
			await host.close();
		}
	});

	it.each([
		['a host without https://', (host: string) => host.replace(/^http:\/\//, '')],
		['a mistyped scheme', (host: string) => host.replace(/^http:/, 'htps:')],
	])('fails for %s saying the Base URL starts with https://, and sends it nothing', async (_name, spoil) => {
		const { credentials } = await service.account('free');
		const host = await startScriptedHost((_req, res) => answer(res, 400, { error: 'jobUid is required', error_code: 'validation_error' }));
		try {
			const result = await testCredential({ ...credentials, baseUrl: spoil(host.url) });
			expect(result).toEqual({ status: 'Error', message: expect.stringMatching(NOT_THE_SERVICE) });
			expect(result.message).toContain('it starts with https://');
			expect(host.requests()).toEqual([]);
		} finally {
			await host.close();
		}
	});

	it('fails for a Base URL where nothing listens', async () => {
		const { credentials } = await service.account('free');
		const result = await testCredential({ ...credentials, baseUrl: 'http://127.0.0.1:1' });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/ECONNREFUSED|refused the connection/) });
	});

	it('sends the key as a generic Bearer header', () => {
		const credential = new JobSearchApi();
		expect(credential.authenticate.properties.headers).toEqual({ Authorization: '=Bearer {{$credentials.apiKey}}' });
	});

	it('follows no redirect, not even to the same host, so the key reaches no other address', async () => {
		const { credentials } = await service.account('free');
		const elsewhere = await startOtherHost();
		const front = await startRedirectingFront(elsewhere.url);
		const self = await startScriptedHost((req, res) => answer(res, 307, '', { Location: `/moved${req.url}` }));
		try {
			for (const host of [front.url, self.url]) {
				const result = await testCredential({ ...credentials, baseUrl: host });
				expect(result).toEqual({ status: 'Error', message: expect.stringMatching(NOT_THE_SERVICE) });
			}
			expect(front.requests()).toHaveLength(1);
			expect(elsewhere.requests()).toEqual([]);
			expect(self.requests().map((r) => r.url)).toEqual(['/v1/get_job']);
		} finally {
			await front.close();
			await elsewhere.close();
			await self.close();
		}
	});
});
