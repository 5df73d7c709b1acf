// Checks the agent e2e from both ends: the executions n8n reported (`n8n execute --rawOutput`
// logs) and every request the scripted model got (model-standin.mjs's record). Prints what the
// model received: each Job Search tool's schema and each tool answer, with sizes (characters and
// rough tokens, 4 characters a token). Fails when
//   - an execution failed, or an agent's output is not the model's final answer;
//   - a search the model read has a job row without a `url` link, or scenario (a) found no row;
//   - a refusal reached the model empty, or without naming the argument to change, or the model
//     could not finish the conversation it was given;
//   - a secret (a Job Search API key, the stand-in's key) is anywhere in what n8n sent the model.
//   SECRETS=<k1,k2,...> node check-agent.mjs <record file> <agent version>=<execute log>...
import { existsSync, readFileSync } from 'fs';

import { isEmptyAnswer, jobRows, messageText, names, parsed } from './reading.mjs';
import { REFUSED, tagOf, toolName } from './scenarios.mjs';

const [recordFile, ...runs] = process.argv.slice(2);
const secrets = (process.env.SECRETS ?? '').split(',').filter(Boolean);
const failures = [];
/** Records a failed check; returns false, so a check can `return fail(...)`. */
const fail = (message) => {
	failures.push(message);
	console.log(`  FAILED: ${message}`);
	return false;
};
const size = (chars) => `${chars} chars / ~${Math.ceil(chars / 4)} tokens`;
const indent = (text) => text.replace(/\n/g, '\n      ');

// No record file: the model never got a request (each agent check below then fails).
const records = existsSync(recordFile) ? readFileSync(recordFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];

// Secrets: nowhere in a request's headers (Authorization aside: the stand-in's key belongs there,
// and the record never holds it) or body; nor anything shaped like a Job Search key.
let leaks = 0;
for (const [index, record] of records.entries()) {
	const sent = JSON.stringify(record.headers) + record.body;
	const found = secrets.filter((secret) => sent.includes(secret)).map((secret) => `${secret.slice(0, 5)}…`);
	if (/gm_[A-Za-z0-9_-]{20,}/.test(sent)) found.push('a gm_… key');
	if (found.length > 0) {
		leaks++;
		fail(`request ${index + 1} to the model holds ${found.join(', ')}`);
	}
	if (record.status !== 200) fail(`request ${index + 1} to the model (${record.method} ${record.path}) was answered ${record.status}`);
}
console.log(`  the model got ${records.length} requests; ${leaks ? `${leaks} held a secret` : 'no secret in any of them'}`);

/** The conversations the model saw, by agent version and scenario tag: the requests in order. */
const conversations = new Map();
for (const record of records) {
	const body = parsed(record.body);
	const tag = tagOf((body?.messages ?? []).filter((m) => m.role === 'user').map(messageText).join('\n'));
	if (!tag) continue;
	const key = `${tag.agentVersion}|${tag.scenario.tag}`;
	if (!conversations.has(key)) conversations.set(key, { ...tag, requests: [] });
	conversations.get(key).requests.push({ body, turn: record.turn });
}

/** The execution `n8n execute --rawOutput` logged (N8N_LOG_FORMAT=json), or undefined. */
function executionOf(logFile) {
	for (const line of readFileSync(logFile, 'utf8').split('\n')) {
		try {
			const run = JSON.parse(JSON.parse(line).message);
			const result = (run.data ?? run).resultData;
			if (result) return result;
		} catch {
			// not the result line
		}
	}
	return undefined;
}

/** The tool calls of a conversation's last request, each with the answer the model got. */
function toolExchanges(body) {
	const calls = new Map();
	const exchanges = [];
	for (const message of body.messages) {
		for (const c of message.tool_calls ?? []) calls.set(c.id, { name: c.function.name, args: parsed(c.function.arguments) ?? c.function.arguments });
		if (message.role === 'tool') exchanges.push({ ...(calls.get(message.tool_call_id) ?? { name: '?', args: {} }), answer: messageText(message) });
	}
	return exchanges;
}

/** Prints each Job Search tool's schema as the model got it; returns all tools' characters. */
function printSchemas(body, scenario) {
	for (const tool of scenario.tools) {
		const schema = (body.tools ?? []).find((t) => (t.function?.name ?? t.name) === toolName(tool.node));
		if (!schema) fail(`the model was not offered the tool ${toolName(tool.node)} (offered: ${(body.tools ?? []).map((t) => t.function?.name).join(', ')})`);
		else console.log(`    schema of ${toolName(tool.node)}: ${size(JSON.stringify(schema).length)}`);
	}
	return (body.tools ?? []).reduce((sum, t) => sum + JSON.stringify(t).length, 0);
}

const searchRows = (exchange) => jobRows(exchange.answer);

/** Whether every search row the model got carries its job's link. */
function allLinked(rows) {
	const unlinked = rows.filter((row) => typeof row.url !== 'string' || !/^https?:\/\//.test(row.url));
	if (unlinked.length > 0) return fail(`${unlinked.length} of ${rows.length} search rows reached the model without a url link (first: ${unlinked[0].uid})`);
	return true;
}

function checkRefusal(exchange, what, argumentNames) {
	const { answer } = exchange;
	if (isEmptyAnswer(answer)) return fail(`the refused call (${what}) reached the model as an empty answer: ${JSON.stringify(answer)}`);
	if (jobRows(answer).length > 0) return fail(`the call with ${what} was not refused: it returned jobs`);
	const named = names(answer, ...argumentNames);
	if (!named) return fail(`the refusal of ${what} does not name the argument to change (${argumentNames.join(' or ')})`);
	console.log(`    the refusal of ${what} names "${named}"`);
	return true;
}

/** Each conversation's own checks on the tool answers in order; true when all held. */
const CHECKS = {
	'search-then-read'([searched, read]) {
		if (!searched) return fail('the model never got a search answer');
		const rows = searchRows(searched);
		if (rows.length === 0) return fail(`the search returned no job row: ${searched.answer.slice(0, 300)}`);
		if (!read) return fail('the model never got the Get Job answer');
		if (!jobRows(read.answer).some((job) => job.uid === rows[0].uid)) return fail(`Get Job's answer is not job ${rows[0].uid}: ${read.answer.slice(0, 300)}`);
		return allLinked(rows);
	},
	'refused-then-corrected'([country, rates, corrected]) {
		if (!country) return fail('the model never got an answer to the call with a country name');
		if (!checkRefusal(country, 'a country name ("United Kingdom")', REFUSED.country)) return false;
		if (!rates) return fail('the model never got an answer to the call with the rates the wrong way round');
		if (!checkRefusal(rates, 'a minimum rate above the maximum', REFUSED.rates)) return false;
		if (!corrected) return fail('the model never got an answer to the corrected call');
		const rows = searchRows(corrected);
		if (rows.length === 0) return fail(`the corrected search returned no job row: ${corrected.answer.slice(0, 300)}`);
		return allLinked(rows);
	},
};

const summary = [];
for (const run of runs) {
	const [agentVersion, logFile] = run.split('=');
	console.log(`  AI Agent ${agentVersion}:`);
	const execution = executionOf(logFile);
	if (!execution) fail(`AI Agent ${agentVersion}: no execution result in ${logFile}`);
	else if (execution.error) fail(`AI Agent ${agentVersion}: the execution failed at ${execution.lastNodeExecuted}: ${execution.error.message}`);
	const mine = [...conversations.values()].filter((c) => c.agentVersion === String(agentVersion));
	if (mine.length === 0) fail(`AI Agent ${agentVersion} never asked the model`);
	for (const { scenario, requests } of mine) {
		console.log(`   ${scenario.agentName} (${requests.length} model requests):`);
		const schemaChars = printSchemas(requests[0].body, scenario);
		const exchanges = toolExchanges(requests[requests.length - 1].body);
		for (const exchange of exchanges) {
			const rows = jobRows(exchange.answer).length;
			console.log(`    ${exchange.name}(${JSON.stringify(exchange.args)}) -> ${size(exchange.answer.length)}${rows ? `, ${rows} job rows` : ''}:`);
			console.log(`      ${indent(rows > 1 ? `${exchange.answer.slice(0, 400)}…` : exchange.answer)}`);
		}
		const answers = exchanges.map((e) => `${e.name} ${size(e.answer.length)}`).join(', ');
		summary.push(`AI Agent ${agentVersion}, ${scenario.tag}: tool schemas ${size(schemaChars)} in each model request; tool answers: ${answers || 'none'}`);
		if (!CHECKS[scenario.tag](exchanges)) continue;
		const last = requests[requests.length - 1].turn;
		if (!last?.text || last.gaveUp) {
			fail(`${scenario.agentName}: the model did not finish: ${JSON.stringify(last)}`);
			continue;
		}
		const output = execution?.runData?.[scenario.agentName]?.[0]?.data?.main?.[0]?.[0]?.json?.output;
		if (output !== last.text) fail(`${scenario.agentName}: its output is not the model's final answer: ${JSON.stringify(output)?.slice(0, 200)}`);
		else console.log(`    agent output: ${output}`);
	}
}
console.log('  sizes of what the model received:');
for (const line of summary) console.log(`   ${line}`);
if (failures.length > 0) {
	console.log(`  ${failures.length} agent check(s) failed`);
	process.exit(1);
}
console.log('  every agent conversation ran as scripted: refusals read as text and corrected, every search row linked, no secret sent');
