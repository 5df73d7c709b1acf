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

import {
	JOB_SEARCH_TYPE,
	PACKAGE_NAME,
	createAdditionalData,
	createWorkflow,
	loadNodeTypes,
	releaseCoreTimers,
	type HarnessCredentials,
} from '../harness';

/**
 * Runs the Job Search node as an AI Agent's tool inside real n8n-core: n8n-core wraps it
 * (createNodeAsTool), fills its $fromAI parameters from the model's arguments and runs it in a
 * tool context, as for a real agent. Used by the tool tests and bench/toolOutput.bench.ts.
 */

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

export interface ToolRun {
	description: string;
	/** What the model reads back: n8n sends the items' json as one JSON array. */
	answer: string;
	/** The answer's one item (a search's total and jobs, a job, a refusal); undefined when it has several. */
	result: IDataObject | undefined;
	/** A search's jobs, else the answer's items. */
	jobs: IDataObject[];
}

export async function callAsTool(parameters: INodeParameters, args: IDataObject, credentials: HarnessCredentials): Promise<ToolRun> {
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
	const items = JSON.parse(answer) as IDataObject[];
	const result = items.length === 1 ? items[0] : undefined;
	const jobs = Array.isArray(result?.jobs) ? (result.jobs as IDataObject[]) : items;
	return { description: item.json.description as string, answer, result, jobs };
}

/** A parameter the model fills, as the editor's ✨ button writes it. */
export const fromAi = (key: string, type: 'number' | 'boolean' | 'string') => `={{ $fromAI('${key}', '', '${type}') }}`;
