import { NodeHelpers, type IDataObject, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { JobSearch } from '../../nodes/JobSearch/JobSearch.node';
import { JOB_LINK_UID_PATTERN } from '../../nodes/JobSearch/actions/common/jobUid';
import { clientOp, getJob, runJobSearch } from './helpers';
import { useTestService } from '../support/service';
import { callAsTool } from './toolHarness';

const service = useTestService();

const byUrl = (value: string) => ({ __rl: true, mode: 'url', value });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const linkOf = (uid: string) => `https://www.upwork.com/jobs/~02${uid}`;

const jobUidFields = () =>
	new JobSearch().description.properties.filter((p): p is INodeProperties => p.name === 'jobUid');

/**
 * The issues n8n's own parameter check finds for the Get Job node (the editor shows them under the
 * field as the user types, and n8n refuses to run a workflow that has them).
 */
function editorIssues(jobUid: unknown): string[] {
	const node = new JobSearch();
	const issues = NodeHelpers.getNodeParametersIssues(
		node.description.properties,
		{
			id: 'n',
			name: 'Get Job',
			type: 'n8n-nodes-job-search.jobSearch',
			typeVersion: 1,
			position: [0, 0],
			parameters: { resource: 'job', operation: 'get', jobUid } as INodeParameters,
		},
		node.description,
	);
	return issues?.parameters?.jobUid ?? [];
}
const editorAccepts = (mode: 'url' | 'id', value: string) => editorIssues({ __rl: true, mode, value }).length === 0;

describe('Job UID as a resource locator', () => {
	it('is a resource locator with By URL and By ID on every operation that takes a job', () => {
		const fields = jobUidFields();
		expect(fields).toHaveLength(3);
		for (const field of fields) {
			expect(field.type).toBe('resourceLocator');
			expect(field.modes!.map((m) => m.name)).toEqual(['url', 'id']);
			expect(field.default).toEqual({ mode: 'id', value: '' });
		}
	});

	it('checks a link as the user types: a job link passes, a link that holds no uid is refused', () => {
		expect(editorAccepts('url', 'https://www.upwork.com/jobs/~021955020056847176693')).toBe(true);
		expect(editorAccepts('url', 'https://www.upwork.com/freelance-jobs/apply/React-Developer_~021955020056847176693/')).toBe(true);
		expect(editorAccepts('url', 'https://www.upwork.com/jobs/~1955020056847176693?source=rss')).toBe(true);
		expect(editorAccepts('url', 'https://www.upwork.com/nx/find-work/best-matches')).toBe(false);
		expect(editorAccepts('url', '1955020056847176693')).toBe(false);
		expect(editorAccepts('id', '1955020056847176693')).toBe(true);
		expect(editorAccepts('id', '12ab')).toBe(false);
	});

	it("pulls the uid out of a link with exactly one group, as n8n's extractValue requires", () => {
		const match = new RegExp(JOB_LINK_UID_PATTERN).exec('https://www.upwork.com/jobs/~021955020056847176693/?ref=x');
		expect(match).toHaveLength(2);
		expect(match![1]).toBe('1955020056847176693');
	});

	it('gets the job of a pasted link (By URL) and of a uid (By ID), and links By ID to the job', async () => {
		const { credentials } = await service.account('pro');
		const [a, b] = service.server.admin.visibleJobs();
		const viaUrl = await runJobSearch(getJob(byUrl(a.externalLink) as never), { credentials });
		expect(viaUrl.error).toBeUndefined();
		expect(viaUrl.output[0].json.uid).toBe(a.uid);
		const viaId = await runJobSearch(getJob(byId(b.uid) as never), { credentials });
		expect(viaId.output[0].json.uid).toBe(b.uid);
		const idMode = jobUidFields()[0].modes!.find((m) => m.name === 'id')!;
		expect(idMode.url).toBe('=https://www.upwork.com/jobs/~02{{$value}}');
		expect(linkOf(b.uid)).toBe(b.externalLink);
	});

	it('still runs a workflow saved with a plain string uid, and one whose plain string is a link', async () => {
		const { credentials } = await service.account('pro');
		const [a] = service.server.admin.visibleJobs();
		const plain = await runJobSearch(getJob(a.uid), { credentials });
		expect(plain.output[0].json.uid).toBe(a.uid);
		const link = await runJobSearch(clientOp('getActivity', a.externalLink), { credentials });
		expect(link.error).toBeUndefined();
		expect(link.output[0].json.jobUid).toBe(a.uid);
	});

	it('maps {{ $json.uid }} per item, in the locator and in a plain string', async () => {
		const { credentials } = await service.account('pro');
		const [a, b] = service.server.admin.visibleJobs();
		const input = [{ uid: a.uid }, { uid: b.uid }];
		for (const jobUid of [byId('={{ $json.uid }}'), '={{ $json.uid }}']) {
			const run = await runJobSearch(getJob(jobUid as never), { credentials, input });
			expect(run.output.map((i) => i.json.uid)).toEqual([a.uid, b.uid]);
		}
	});

	it('is filled in by the model with $fromAI when the node is an AI tool', async () => {
		const { credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const fromAi = "={{ $fromAI('jobUid', 'The uid or link of the job', 'string') }}";
		for (const jobUid of [byId(fromAi), fromAi]) {
			const { jobs } = await callAsTool(getJob(jobUid as unknown as string), { jobUid: job.uid }, credentials);
			expect(jobs[0].uid).toBe(job.uid);
		}
		const viaLink = await callAsTool(getJob(byUrl(fromAi) as unknown as string), { jobUid: job.externalLink }, credentials);
		expect(viaLink.jobs[0].uid).toBe(job.uid);
	});
});

describe('Job UID slips, named by the field before anything is sent', () => {
	async function refusal(jobUid: INodeParameters[string], input: IDataObject[] = [{}]) {
		const { id, credentials } = await service.account('pro');
		const run = await runJobSearch(getJob(jobUid as string), { credentials, input });
		expect(service.server.admin.callLog(id)).toEqual([]);
		return { message: run.error?.message ?? '', description: String((run.error as { description?: unknown })?.description ?? '') };
	}

	it('reports an object mapped into Job UID as an object, and points at its uid field', async () => {
		const job = { uid: '1955020056847176693', title: 'React developer' };
		const { message, description } = await refusal(byId('={{ $json.job }}'), [{ job: job.uid }, { job }]);
		expect(message).toMatch(/^Job UID got an object \(\{"uid":"1955020056847176693".*\), not a job uid \[item 1\]$/);
		expect(message).not.toMatch(/empty/);
		expect(description).toContain('{{ $json.uid }}, not {{ $json }}');
	});

	it('reports an object in a plain string field (earlier workflows) the same way, with its item', async () => {
		const { message } = await refusal('={{ $json }}', [{ uid: '1955020056847176693' }]);
		expect(message).toBe('Job UID got an object ({"uid":"1955020056847176693"}), not a job uid [item 0]');
	});

	it('tells a user who typed {{ $json.uid }} into a Fixed field to switch it to Expression', async () => {
		expect(editorIssues(byId('{{ $json.uid }}'))).toEqual([expect.stringMatching(/switch the field to Expression\.$/)]);
		expect(editorIssues(byId('={{ $json.uid }}'))).toEqual([]);
		const { message, description } = await refusal('{{ $json.uid }}');
		expect(message).toBe('Job UID holds the text "{{ $json.uid }}": the field is Fixed, so n8n did not fill in the expression [item 0]');
		expect(description).toMatch(/^Switch the field to Expression/);
		expect(description).not.toMatch(/for example \{\{ \$json\.uid \}\}/);
	});

	it('refuses a link that holds no uid as it is typed, and at run time in a plain field', async () => {
		expect(editorIssues(byUrl('https://www.upwork.com/nx/find-work/'))).toEqual([expect.stringContaining('~02')]);
		const { message, description } = await refusal('https://www.upwork.com/nx/find-work/');
		expect(message).toBe('Job UID got the link "https://www.upwork.com/nx/find-work/", which holds no job uid [item 0]');
		expect(description).toContain('~02');
	});

	it('says an empty Job UID is empty, and a number that lost its digits is one', async () => {
		expect((await refusal(byId('={{ "" }}'))).message).toMatch(/^Job UID must be a string of digits.*; it is empty \[item 0\]$/);
		expect((await refusal('={{ 1955020056847176693 }}')).message).toMatch(/^Job UID got the number .* lose digits\) \[item 0\]$/);
	});
});
