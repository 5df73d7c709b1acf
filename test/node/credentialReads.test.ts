import { HarnessCredentialsHelper } from '../harness';
import { getJob, runJobSearch } from './helpers';
import { useTestService } from '../support/service';

const service = useTestService();

describe('credential reads', () => {
	it("reads the credential once per request and hands it to n8n's helper instead of a second read", async () => {
		const { credentials } = await service.account('enterprise');
		const jobs = service.server.admin.visibleJobs().slice(0, 5);
		const reads = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');
		const applied = jest.spyOn(HarnessCredentialsHelper.prototype, 'authenticate');
		try {
			const run = await runJobSearch(getJob('={{ $json.uid }}'), { credentials, input: jobs.map((j) => ({ uid: j.uid })) });
			expect(run.error).toBeUndefined();
			expect(run.output).toHaveLength(jobs.length);
			// In n8n every read is a database read and a decryption.
			expect(reads).toHaveBeenCalledTimes(jobs.length);
			expect(applied).toHaveBeenCalledTimes(jobs.length);
		} finally {
			reads.mockRestore();
			applied.mockRestore();
		}
	});
});
