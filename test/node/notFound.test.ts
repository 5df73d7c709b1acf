import { getJob, runJobSearch, search } from './helpers';
import { useTestService } from '../support/service';

const service = useTestService();

describe('a 404, told by the tool that got it', () => {
	it('tells Search Jobs at a Base URL with a path to remove the path, not to check a Job UID', async () => {
		const { credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ options: { maxRetries: 0 } }), { credentials: { ...credentials, baseUrl: `${service.server.url}/v1` } });
		expect(error?.message).toMatch(/^Not found/);
		expect(error?.description).toBe(
			'Search Jobs looks up no record, so the host has no such tool: remove any path after the host from the Base URL in the credential (https://api.getmany.com.ua, without /v1).',
		);
	});

	it('tells Get Job with a uid the service does not know to check the Job UID', async () => {
		const { credentials } = await service.account('enterprise');
		const { error } = await runJobSearch(getJob('999999999999'), { credentials });
		expect(error?.message).toMatch(/^Not found/);
		expect(error?.description).toMatch(/^Check the Job UID: it must be the uid of a job the search returned/);
	});
});
