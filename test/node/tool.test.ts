import { WorkflowExecute } from 'n8n-core';
import {
	NodeConnectionTypes,
	deepCopy,
	type IConnections,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { TOOL_DESCRIPTION_CHARS } from '../../nodes/JobSearch/output';
import {
	JOB_SEARCH_TYPE,
	PACKAGE_NAME,
	createAdditionalData,
	createWorkflow,
	loadNodeTypes,
	releaseCoreTimers,
	type HarnessCredentials,
} from '../harness';
import { getJob, runJobSearch, search, startTestService, type TestService } from './helpers';

const TOOL_TYPE = `${PACKAGE_NAME}.jobSearchTool`;
const AGENT_TYPE = 'harness.agent';

/** The `…Tool` variant n8n makes of a `usableAsTool` node when it loads the package (as n8n's loader does). */
function asTool(node: INodeType): INodeType {
	const description = deepCopy(node.description) as INodeTypeDescription;
	description.name += 'Tool';
	description.displayName += ' Tool';
	description.inputs = [];
	description.outputs = [NodeConnectionTypes.AiTool];
	delete description.usableAsTool;
	return { description, execute: node.execute };
}

interface Invokable {
	name: string;
	description: string;
	invoke(args: IDataObject): Promise<string>;
}

/**
 * An AI Agent stand-in: takes its connected tools from n8n-core (which wraps the tool node and
 * runs it on each call, exactly as for a real agent) and calls the first with the arguments in
 * its `call` parameter, as a model would. Outputs the tool's name, description and answer.
 */
class AgentStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agent',
		name: 'agent',
		group: ['transform'],
		version: 1,
		description: 'Calls its tool once with fixed arguments',
		defaults: { name: 'Agent' },
		inputs: [NodeConnectionTypes.Main, NodeConnectionTypes.AiTool],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Call', name: 'call', type: 'json', default: '{}' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Invokable[];
		const args = JSON.parse(this.getNodeParameter('call', 0) as string) as IDataObject;
		const [tool] = tools;
		const answer = await tool.invoke(args);
		return [[{ json: { name: tool.name, description: tool.description, answer }, pairedItem: { item: 0 } }]];
	}
}

interface ToolRun {
	description: string;
	/** What the model reads back: n8n sends the items' json as one JSON array. */
	answer: string;
	jobs: IDataObject[];
}

async function callAsTool(parameters: INodeParameters, args: IDataObject, credentials: HarnessCredentials): Promise<ToolRun> {
	const types = loadNodeTypes();
	types.nodes[TOOL_TYPE] = asTool(types.nodes[JOB_SEARCH_TYPE]);
	types.nodes[AGENT_TYPE] = new AgentStandIn();
	const connections: IConnections = {
		'Job Search Tool': { [NodeConnectionTypes.AiTool]: [[{ node: 'Agent', type: NodeConnectionTypes.AiTool, index: 0 }]] },
	};
	const workflow = createWorkflow(
		{
			nodes: [
				{ name: 'Agent', type: AGENT_TYPE, parameters: { call: JSON.stringify(args) } },
				{ name: 'Job Search Tool', type: TOOL_TYPE, parameters },
			],
			connections,
		},
		types,
	);
	const { additionalData } = createAdditionalData(credentials, types);
	const run = await new WorkflowExecute(additionalData, 'manual').run({ workflow, startNode: workflow.getNode('Agent')! });
	releaseCoreTimers();
	const error = run.data.resultData.error;
	if (error) throw new Error(`The agent run failed: ${error.message}${error.description ? `: ${error.description}` : ''}`);
	const [item] = run.data.resultData.runData.Agent[0].data!.main[0]!;
	const answer = item.json.answer as string;
	return { description: item.json.description as string, answer, jobs: JSON.parse(answer) as IDataObject[] };
}

const fromAi = (key: string, type: 'number' | 'boolean' | 'string') => `={{ $fromAI('${key}', '', '${type}') }}`;

let service: TestService;
beforeAll(async () => {
	service = await startTestService();
});
afterAll(async () => await service.server.close());

describe('Job Search as an AI Agent tool', () => {
	it('answers a search with compact jobs whose long descriptions are cut, saying how to read the rest', async () => {
		const { credentials } = await service.account('enterprise');
		const { jobs, description } = await callAsTool(search({ limit: fromAi('limit', 'number'), toolMaxJobs: 300 }), { limit: 300 }, credentials);
		expect(jobs).toHaveLength(300);
		const fullText = new Map(service.server.admin.visibleJobs().map((j) => [j.uid, j.description]));
		let cut = 0;
		for (const job of jobs) {
			expect(Object.keys(job)).toEqual(expect.arrayContaining(['uid', 'title', 'postedAt', 'connectsToApply', 'client', 'description']));
			expect(job).not.toHaveProperty('url');
			const text = job.description as string;
			const full = fullText.get(job.uid as string)!.replace(/\s+/g, ' ');
			expect(text.length).toBeLessThanOrEqual(TOOL_DESCRIPTION_CHARS);
			if (full.length > TOOL_DESCRIPTION_CHARS) {
				cut++;
				expect(text).toMatch(/…$/);
				expect(full.startsWith(text.slice(0, -1))).toBe(true);
			} else expect(text).toBe(full);
		}
		expect(cut).toBeGreaterThan(0);
		expect(description).toMatch(/call Get Job with its uid/);
	});

	it('caps a model asking for Return All at Max Jobs per Tool Call, and bills only those rows', async () => {
		const { id, credentials } = await service.account('pro');
		const { jobs } = await callAsTool(
			search({ returnAll: fromAi('returnAll', 'boolean'), limit: fromAi('limit', 'number') }),
			{ returnAll: true, limit: 5000 },
			credentials,
		);
		expect(jobs).toHaveLength(20);
		expect(service.server.admin.callLog(id).map((c) => c.consumedMicrocents)).toEqual([20 * 579_000]);
	});

	it('returns more per call only when the user raises the cap', async () => {
		const { credentials } = await service.account('pro');
		const { jobs } = await callAsTool(search({ limit: fromAi('limit', 'number'), toolMaxJobs: 30 }), { limit: 100 }, credentials);
		expect(jobs).toHaveLength(30);
	});

	it('gives the model a Get Job answer with the whole description and the client profile', async () => {
		const { credentials } = await service.account('pro');
		const [job] = service.server.admin.visibleJobs();
		const { jobs, description } = await callAsTool(getJob(fromAi('uid', 'string')), { uid: job.uid }, credentials);
		expect(jobs[0]).toEqual(expect.objectContaining({ uid: job.uid, description: job.description, questions: job.questions }));
		expect(description).toMatch(/^Get one Upwork job in full by its uid/);
	});

	it('leaves the same node in a workflow as it was: Limit and Return All apply, the simplified job has every field', async () => {
		const { credentials } = await service.account('pro');
		const { output } = await runJobSearch(search({ limit: 30 }), { credentials });
		expect(output).toHaveLength(30);
		expect(output[0].json).toEqual(expect.objectContaining({ url: expect.any(String), description: expect.any(String) }));
	});
});
