import type { IDataObject } from 'n8n-workflow';

import { getJob, search } from './helpers';
import { useTestService } from '../support/service';
import { callAsTool, fromAi } from './toolHarness';

const service = useTestService();

describe('the Output of Job Search as an AI Agent tool', () => {
	it('gives the whole record with Raw', async () => {
		const { credentials } = await service.account('pro');
		const { jobs } = await callAsTool(search({ limit: fromAi('limit', 'number'), toolOutput: 'raw' }), { limit: 3 }, credentials);
		expect(jobs).toHaveLength(3);
		for (const job of jobs) {
			expect(job).toEqual(expect.objectContaining({ uid: expect.any(String), client: expect.any(Object), externalLink: expect.any(String) }));
		}
	});

	it('gives only the listed fields with Selected Fields, keyed as written, and always the uid', async () => {
		const { credentials } = await service.account('pro');
		const parameters = search({ limit: fromAi('limit', 'number'), toolOutput: 'selected', toolFields: 'title, client.countryCode nope' });
		const { jobs } = await callAsTool(parameters, { limit: 3 }, credentials);
		const byUid = new Map(service.server.admin.visibleJobs().map((job) => [job.uid, job]));
		for (const job of jobs) {
			const full = byUid.get(job.uid as string)!;
			expect(job).toEqual({ uid: full.uid, title: full.title, 'client.countryCode': (full.client as IDataObject).countryCode });
		}
	});

	it('selects fields of Get Job too', async () => {
		const { credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const { jobs } = await callAsTool(getJob(fromAi('uid', 'string'), { toolOutput: 'selected', toolFields: 'duration' }), { uid: job.uid }, credentials);
		expect(jobs).toEqual([{ uid: job.uid, duration: job.duration }]);
	});

	it("refuses Selected Fields with no field before sending anything, telling the model it is the workflow's setting", async () => {
		const { id, credentials } = await service.account('pro');
		const parameters = search({ limit: fromAi('limit', 'number'), toolOutput: 'selected', toolFields: ' , ' });
		const { result } = await callAsTool(parameters, { limit: 3 }, credentials);
		expect(result).toEqual({
			error: "Fields is empty, and Output is Selected Fields. This is a setting of the workflow, not an argument of this call: tell the user that the Job Search tool's settings need fixing. Nothing was sent, so nothing was charged.",
			argument: null,
			charged: false,
		});
		expect(service.server.admin.callLog(id)).toEqual([]);
	});
});
