// The agent e2e's workflows, one per AI Agent typeVersion (3.1, what the nodes panel adds; 2.2,
// the shipped example's): Manual Trigger -> one AI Agent per conversation of scenarios.mjs, one
// after the other, each with its own OpenAI Chat Model (the stand-in's credential) and its Job
// Search tools (the reference server's credential). Writes <out>/<id>.json for
// `n8n import:workflow --separate` and prints the ids, one a line.
//   node workflows.mjs <out dir> <model credential id> <job search credential id>
import { mkdirSync, writeFileSync } from 'fs';

import { SCENARIOS, promptFor } from './scenarios.mjs';

const [out, modelCredentialId, jobSearchCredentialId] = process.argv.slice(2);
const AGENT_VERSIONS = [3.1, 2.2];
const SYSTEM_MESSAGE =
	'You help a freelancer find Upwork jobs. Search with the fewest jobs that answer the question (each is billed), and read a job in full only when asked about it. Answer with title, budget and link.';

const credentials = {
	model: { openAiApi: { id: modelCredentialId, name: 'OpenAI stand-in (scripted, loopback)' } },
	jobSearch: { jobSearchApi: { id: jobSearchCredentialId, name: 'Job Search API (reference server)' } },
};

function workflow(agentVersion) {
	const id = `jobSearchAgent${String(agentVersion).replace('.', '')}`;
	const nodes = [{ id: `${id}-start`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }];
	const connections = {};
	const connect = (from, to, type) => {
		connections[from] ??= {};
		(connections[from][type] ??= [[]])[0].push({ node: to, type, index: 0 });
	};
	let previous = 'Start';
	SCENARIOS.forEach((scenario, s) => {
		const x = 300 + s * 500;
		nodes.push({
			id: `${id}-agent-${s}`,
			name: scenario.agentName,
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: agentVersion,
			position: [x, 0],
			parameters: { promptType: 'define', text: promptFor(scenario, agentVersion), options: { systemMessage: SYSTEM_MESSAGE, maxIterations: 6 } },
		});
		connect(previous, scenario.agentName, 'main');
		previous = scenario.agentName;
		const modelName = `Scripted Model ${s + 1}`;
		nodes.push({
			id: `${id}-model-${s}`,
			name: modelName,
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.2,
			position: [x - 100, 240],
			parameters: { model: { __rl: true, mode: 'id', value: 'scripted' }, options: {} },
			credentials: credentials.model,
		});
		connect(modelName, scenario.agentName, 'ai_languageModel');
		scenario.tools.forEach((tool, t) => {
			nodes.push({
				id: `${id}-tool-${s}-${t}`,
				name: tool.node,
				type: 'n8n-nodes-job-search.jobSearchTool',
				typeVersion: 1,
				position: [x + 60 + t * 160, 240],
				parameters: tool.parameters,
				credentials: credentials.jobSearch,
			});
			connect(tool.node, scenario.agentName, 'ai_tool');
		});
	});
	return { id, name: `Job Search e2e: AI Agent ${agentVersion} with a scripted model`, active: false, nodes, connections, settings: { executionOrder: 'v1' }, pinData: {} };
}

mkdirSync(out, { recursive: true });
for (const version of AGENT_VERSIONS) {
	const w = workflow(version);
	writeFileSync(`${out}/${w.id}.json`, JSON.stringify(w, null, 1));
	console.log(`${w.id} ${version}`);
}
