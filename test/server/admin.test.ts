import { startTestServer, type TestServer } from './helpers';

let t: TestServer;

beforeAll(async () => {
	t = await startTestServer({ jobs: 5, adminToken: 'admin-secret' });
});

afterAll(() => t.server.close());

const admin = (path: string, body: unknown, token = 'admin-secret') =>
	t.http.post(path, body, { headers: { authorization: `Bearer ${token}` } });

describe('the admin API', () => {
	it('refuses a wrong admin token', async () => {
		expect((await admin('/admin/accounts', { plan: 'pro' }, 'wrong')).status).toBe(401);
		expect((await t.http.post('/admin/keys/revoke', { key: 'gm_x' })).status).toBe(401);
	});

	it('issues a gm_ key of 32 random bytes once, which then works', async () => {
		const created = await admin('/admin/accounts', { id: 'acme', plan: 'pro' });
		expect(created.status).toBe(201);
		expect(created.data.key).toMatch(/^gm_[A-Za-z0-9_-]{43}$/);
		const issued = await admin('/admin/accounts/acme/keys', {});
		expect(issued.data.key).not.toBe(created.data.key);
		expect((await t.call('search_jobs', { limit: 1 }, issued.data.key)).status).toBe(200);
	});

	it('caps active keys by plan: one on free, three on pro', async () => {
		const { id } = await t.server.admin.createAccount({ plan: 'free' });
		const refused = await admin(`/admin/accounts/${id}/keys`, {});
		expect(refused.status).toBe(409);
		expect(refused.data.error_code).toBe('key_limit_reached');
		const pro = await t.server.admin.createAccount({ plan: 'pro' });
		await t.server.admin.issueKey(pro.id);
		await t.server.admin.issueKey(pro.id);
		await expect(t.server.admin.issueKey(pro.id)).rejects.toThrow(/409/);
		await t.server.admin.revokeKey(pro.key);
		await expect(t.server.admin.issueKey(pro.id)).resolves.toMatch(/^gm_/);
	});

	it('validates account input', async () => {
		expect((await admin('/admin/accounts', { plan: 'gold' })).data.error_code).toBe('validation_error');
		expect((await admin('/admin/accounts', { plan: 'pro', poolMicrocents: -1 })).status).toBe(400);
		expect((await admin('/admin/accounts/nobody/keys', {})).status).toBe(404);
	});

	it('keeps only hashes: the issued key appears nowhere in the call log', async () => {
		const { id, key } = await t.server.admin.createAccount({ plan: 'pro' });
		await t.call('search_jobs', { limit: 1 }, key);
		const log = t.server.admin.callLog(id);
		expect(log).toHaveLength(1);
		expect(JSON.stringify(log)).not.toContain(key.slice(3));
	});
});
