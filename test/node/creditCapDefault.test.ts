import type { INodeParameters, NodeHint } from 'n8n-workflow';

import { JOB_SEARCH_TYPE, createWorkflow } from '../harness';
import { DEFAULT_MAX_CREDIT_USD, PRICE_MICROCENTS } from '../../nodes/JobSearch/service/pricing';
import { clientOp, runJobSearch, search } from './helpers';
import { useTestService } from '../support/service';
import { callAsTool, fromAi } from './toolHarness';

// The node's defaults: no Max Credit per Execution set anywhere in these workflows.
const service = useTestService();

const spentBy = (id: string, before: number): number => before - service.server.admin.balance(id).totalMicrocents;

describe('Max Credit per Execution by default', () => {
	it('is $1 when the option was never added', () => {
		expect(DEFAULT_MAX_CREDIT_USD).toBe(1);
	});

	it('refuses Limit 10,000 before any request, naming the worst case in dollars and how to raise the cap', async () => {
		const { id, credentials } = await service.account('free');
		const before = service.server.admin.balance(id).totalMicrocents;
		const { error, output } = await runJobSearch(search({ limit: 10_000 }), { credentials });
		expect(output).toEqual([]);
		expect(error?.message).toBe('Not sent: this execution could cost up to $57.90, more than its Max Credit per Execution of $1.00 [item 0]');
		expect(error?.description).toBe(
			'Worst case: Search Jobs for up to 10,000 jobs at $0.00579 each. Nothing was sent and nothing was billed. Raise "Max Credit per Execution (USD)" in Options to at least that amount (0 removes the cap), or ask for less.',
		);
		expect(service.server.admin.callLog(id)).toEqual([]);
		expect(spentBy(id, before)).toBe(0);
	});

	it('sends Limit 50', async () => {
		const { id, credentials } = await service.account('free');
		const { error, output } = await runJobSearch(search({ limit: 50 }), { credentials });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(50);
		expect(service.server.admin.callLog(id).map((call) => call.consumedMicrocents)).toEqual([50 * PRICE_MICROCENTS.search_jobs]);
	});

	it('sends Limit 172, the most rows $1 pays for, and refuses 173', async () => {
		const { id, credentials } = await service.account('pro');
		expect((await runJobSearch(search({ limit: 172 }), { credentials })).error).toBeUndefined();
		expect((await runJobSearch(search({ limit: 173 }), { credentials })).error?.message).toBe('Not sent: this execution could cost up to $1.00167, more than its Max Credit per Execution of $1 [item 0]');
		expect(service.server.admin.callLog(id)).toHaveLength(1);
	});

	it('keeps the value of a workflow that set Max Credit per Execution: 0 still means no cap', async () => {
		const { id, credentials } = await service.account('pro');
		const { error, output } = await runJobSearch(search({ limit: 10_000, options: { maxCreditUsd: 0 } }), { credentials });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(300);
		expect(service.server.admin.callLog(id)).toHaveLength(1);
	});

	it('lets Return All read one job to count the matches, then refuses a walk that would pass $1', async () => {
		const { id, credentials } = await service.account('pro');
		// 300 jobs match: $1.737 in all.
		const { error } = await runJobSearch(search({ returnAll: true }), { credentials });
		expect(error?.message).toBe('Return All stopped: the search matches 300 jobs, up to $1.74, more than the $0.99421 Max Credit per Execution has left [item 0]');
		expect(service.server.admin.callLog(id).map((call) => call.consumedMicrocents)).toEqual([PRICE_MICROCENTS.search_jobs]);
	});

	it('refuses premium lookups that together could pass $1, before any of them', async () => {
		const { id, credentials } = await service.account('pro');
		const jobs = service.server.admin.visibleJobs().slice(0, 200);
		const { error } = await runJobSearch(clientOp('getHistory', '={{ $json.uid }}'), { credentials, input: jobs.map((job) => ({ uid: job.uid })) });
		// 200 × $0.0054 = $1.08.
		expect(error?.message).toBe('Not sent: this execution could cost up to $1.08, more than its Max Credit per Execution of $1.00 [item 185]');
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('refuses a tool call whose worst case passes $1 before sending it, as the answer the model reads', async () => {
		const { id, credentials } = await service.account('pro');
		const { result } = await callAsTool(search({ limit: fromAi('limit', 'number'), toolMaxJobs: 1_000 }), { limit: 1_000 }, credentials);
		expect(result).toMatchObject({ argument: 'limit', charged: false });
		expect((result as { error: string }).error).toMatch(/^Not sent: this execution could cost up to \$5\.79, more than its Max Credit per Execution of \$1\.00\. .*smaller "limit"/);
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('answers a tool call within $1 as before', async () => {
		const { id, credentials } = await service.account('pro');
		const { jobs } = await callAsTool(search({ limit: fromAi('limit', 'number') }), { limit: 20 }, credentials);
		expect(jobs).toHaveLength(20);
		expect(service.server.admin.callLog(id)).toHaveLength(1);
	});
});

describe('The hint that the Limit set passes Max Credit', () => {
	// n8n evaluates a node hint's condition against the node's parameters, as the editor does before a run.
	const shown = (parameters: INodeParameters): unknown => {
		const workflow = createWorkflow({ nodes: [{ name: 'Job Search', type: JOB_SEARCH_TYPE, parameters }] });
		const node = workflow.getNode('Job Search')!;
		const [hint] = (workflow.nodeTypes.getByNameAndVersion(JOB_SEARCH_TYPE, 1).description.hints ?? []) as NodeHint[];
		return workflow.expression.getSimpleParameterValue(node, hint.displayCondition!, 'internal', {});
	};
	const searchWith = (limit: number, options: INodeParameters = {}, returnAll = false): INodeParameters => ({
		resource: 'job',
		operation: 'search',
		returnAll,
		limit,
		options,
	});

	it('shows at Limit 173 under the default $1, not at 172', () => {
		expect(shown(searchWith(173))).toBe(true);
		expect(shown(searchWith(172))).toBe(false);
	});

	it('follows the Max Credit set, and hides with no cap or Return All', () => {
		expect(shown(searchWith(1_000, { maxCreditUsd: 10 }))).toBe(false);
		expect(shown(searchWith(1_000, { maxCreditUsd: 5 }))).toBe(true);
		expect(shown(searchWith(10_000, { maxCreditUsd: 0 }))).toBe(false);
		expect(shown(searchWith(10_000, {}, true))).toBe(false);
	});

	it('does not show for Get Job', () => {
		expect(shown({ resource: 'job', operation: 'get', options: {} })).toBe(false);
	});
});
