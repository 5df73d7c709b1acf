// A scripted OpenAI-compatible model on loopback, for n8n's OpenAI Chat Model node (its
// credential's Base URL points here): POST /v1/chat/completions answers with the next turn of
// model-script.mjs, as a tool call or a final answer, plain or streamed (SSE). It keeps every
// request it gets, one JSON line each in <record file> (headers without Authorization, the body,
// the turn it answered), for check-agent.mjs: that is everything n8n sent to the model.
//   node model-standin.mjs <port> <api key> <record file>
import { appendFileSync } from 'fs';
import { createServer } from 'http';

import { nextTurn } from './model-script.mjs';

const [port, apiKey, recordFile] = process.argv.slice(2);
let served = 0;

function send(res, status, body) {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

/** The assistant message and finish reason of a turn, in the Chat Completions shape. */
function assistantMessage(turn) {
	if (turn.call) {
		const toolCall = { id: `call_${++served}`, type: 'function', function: { name: turn.call.name, arguments: JSON.stringify(turn.call.args) } };
		return { message: { role: 'assistant', content: null, tool_calls: [toolCall] }, finish: 'tool_calls' };
	}
	served++;
	return { message: { role: 'assistant', content: turn.text }, finish: 'stop' };
}

function completion(res, body, turn) {
	const { message, finish } = assistantMessage(turn);
	const base = { id: `chatcmpl-standin-${served}`, created: Math.floor(Date.now() / 1000), model: body.model ?? 'scripted' };
	const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
	if (!body.stream) {
		return send(res, 200, { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish, logprobs: null }], usage });
	}
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	const chunk = (choices, extra = {}) => res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`);
	const delta = message.tool_calls
		? { role: 'assistant', content: null, tool_calls: message.tool_calls.map((c, index) => ({ index, ...c })) }
		: { role: 'assistant', content: message.content };
	chunk([{ index: 0, delta, finish_reason: null }]);
	chunk([{ index: 0, delta: {}, finish_reason: finish }]);
	if (body.stream_options?.include_usage) chunk([], { usage });
	res.end('data: [DONE]\n\n');
}

const server = createServer((req, res) => {
	const chunks = [];
	req.on('data', (c) => chunks.push(c));
	req.on('end', () => {
		const text = Buffer.concat(chunks).toString('utf8');
		const { authorization, ...headers } = req.headers;
		const record = { at: new Date().toISOString(), method: req.method, path: req.url, headers, body: text };
		const keep = (extra) => appendFileSync(recordFile, `${JSON.stringify({ ...record, ...extra })}\n`);
		if (authorization !== `Bearer ${apiKey}`) {
			keep({ status: 401 });
			return send(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
		}
		if (req.method === 'GET' && req.url.endsWith('/models')) {
			keep({ status: 200 });
			return send(res, 200, { object: 'list', data: [{ id: 'scripted', object: 'model', owned_by: 'job-search-e2e' }] });
		}
		if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
			keep({ status: 404 });
			return send(res, 404, { error: { message: `no ${req.method} ${req.url} here: this stand-in answers POST /v1/chat/completions`, type: 'invalid_request_error' } });
		}
		let body;
		try {
			body = JSON.parse(text);
		} catch {
			keep({ status: 400 });
			return send(res, 400, { error: { message: 'the body is not JSON', type: 'invalid_request_error' } });
		}
		const turn = nextTurn(body.messages ?? []);
		keep({ status: 200, turn });
		completion(res, body, turn);
	});
});
server.listen(Number(port), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}/v1`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
