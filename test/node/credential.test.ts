import { testCredential } from '../harness';
import { JobSearchApi } from '../../credentials/JobSearchApi.credentials';
import { startTestService, type TestService } from './helpers';
import { startHeaderRecorder, startRedirectingFront } from './redirectingFront';

let service: TestService;
beforeAll(async () => {
	service = await startTestService();
});
afterAll(async () => await service.server.close());

describe('the Job Search API credential test', () => {
	it('passes for a good key and spends no credit', async () => {
		const { id, credentials } = await service.account('free');
		const before = service.server.admin.balance(id);
		expect(await testCredential(credentials)).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(service.server.admin.balance(id)).toEqual(before);
		expect(service.server.admin.callLog(id)).toEqual([]);
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
	])('fails for %s with a message about the credentials', async (_name, keyOf) => {
		const { credentials } = await service.account('free');
		const apiKey = await keyOf();
		const result = await testCredential({ ...credentials, apiKey });
		expect(result.status).toBe('Error');
		// n8n 2.8 shows its stock 401 text; newer n8n shows the credential's own rule message.
		expect(result.message).toMatch(/check your credentials|API key is missing, wrong or revoked/);
		expect(result.message).not.toContain(apiKey);
	});

	it('calls MCP tools/list at the MCP URL with the generic Bearer header', () => {
		const credential = new JobSearchApi();
		expect(credential.authenticate.properties.headers).toEqual({ Authorization: '=Bearer {{$credentials.apiKey}}' });
		expect(credential.test.request).toEqual(
			expect.objectContaining({ method: 'POST', url: '={{$credentials.mcpUrl}}', body: expect.objectContaining({ method: 'tools/list' }) }),
		);
	});

	it('does not carry the key to another host that the MCP URL redirects to', async () => {
		const { credentials } = await service.account('free');
		const elsewhere = await startHeaderRecorder();
		const front = await startRedirectingFront(elsewhere.url);
		try {
			const result = await testCredential({ ...credentials, mcpUrl: `${front.url}/mcp` });
			expect(result.status).toBe('Error');
			expect(front.requests()).toBe(1);
			expect(elsewhere.authorizations()).toEqual([undefined]);
		} finally {
			await front.close();
			await elsewhere.close();
		}
	});
});
