import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolDefinitions } from '../nodes/JobSearch/filters';
import { MCP_UNAUTHORIZED_BODY } from './errors';
import { handleTool, type CallContext, type ServiceState, type ToolOutcome } from './handlers';
import type { ToolRouteGuards } from './routeGuards';
import { outcomeJson } from './serialize';

export const MCP_SERVER_INFO = { name: 'job-search-reference', version: '1.0.0' };

/**
 * A tool call's outcome as an MCP result. Success: the REST envelope `{data, usage}` as JSON text
 * and as structuredContent. Refusal (402, 403, 429, 400, 404, ...): `isError: true` with the very
 * REST error body, so clients read the same `error_code` on both transports.
 */
export function toMcpResult(outcome: ToolOutcome): CallToolResult {
	const body = outcome.body as unknown as Record<string, unknown>;
	return {
		...(outcome.status === 200 ? {} : { isError: true }),
		content: [{ type: 'text', text: JSON.stringify(body) }],
		structuredContent: body,
	};
}

type RequestId = string | number;

/**
 * Each tools/call's arguments exactly as the client sent them, by JSON-RPC id. The SDK's parsing
 * drops a `__proto__` key silently, which would serve (and bill) a search the client did not
 * ask for; the handler validates the arguments as sent instead, so such a key is refused by name.
 */
function argumentsById(body: unknown): Map<RequestId, unknown> {
	const byId = new Map<RequestId, unknown>();
	for (const message of Array.isArray(body) ? body : [body]) {
		const m = message as { method?: unknown; id?: unknown; params?: { arguments?: unknown } } | null;
		if (m === null || typeof m !== 'object' || m.method !== 'tools/call') continue;
		if ((typeof m.id === 'string' || typeof m.id === 'number') && m.params !== null && typeof m.params === 'object') {
			byId.set(m.id, m.params.arguments);
		}
	}
	return byId;
}

/**
 * A batch whose requests repeat an id: each would be run and billed, but the answers, keyed by
 * id, could not tell them apart. Refused whole, before any runs.
 */
function repeatedId(body: unknown): RequestId | undefined {
	if (!Array.isArray(body)) return undefined;
	const seen = new Set<RequestId>();
	for (const message of body) {
		const id = (message as { id?: unknown } | null)?.id;
		if (typeof id !== 'string' && typeof id !== 'number') continue;
		if (seen.has(id)) return id;
		seen.add(id);
	}
	return undefined;
}

function serverFor(state: ServiceState, ctx: CallContext, rawArguments: Map<RequestId, unknown>): Server {
	const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} } });
	// Listing tools is free and not rate-limited (decision B7): it never reaches handleTool.
	server.setRequestHandler(ListToolsRequestSchema, () => ({
		tools: toolDefinitions().map(({ name, title, description, inputSchema }) => ({
			name,
			title,
			description,
			inputSchema: inputSchema as { type: 'object'; [key: string]: unknown },
		})),
	}));
	server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
		const input = rawArguments.has(extra.requestId) ? rawArguments.get(extra.requestId) : request.params.arguments;
		return toMcpResult(handleTool(state, ctx, request.params.name, input ?? {}));
	});
	return server;
}

/**
 * The SDK insists on an Accept of both JSON and SSE; the public deployment answers plain JSON
 * clients too, so the Accept header is normalised before the SDK sees the request.
 */
function webRequestOf(request: FastifyRequest): Request {
	const headers = new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
	const version = request.headers['mcp-protocol-version'];
	if (typeof version === 'string') headers.set('mcp-protocol-version', version);
	// A fixed origin: the client's Host header must not be able to break the URL.
	return new Request('http://localhost/mcp', { method: 'POST', headers });
}

async function handleMcp(state: ServiceState, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
	// Checked again now that the body is in: the key may have been revoked while it arrived.
	if (request.callKey!.revoked) return reply.code(401).send(MCP_UNAUTHORIZED_BODY);
	const repeated = repeatedId(request.body);
	if (repeated !== undefined) {
		return reply.code(400).send({
			jsonrpc: '2.0',
			error: { code: -32600, message: `Invalid Request: the batch repeats the id ${JSON.stringify(repeated).slice(0, 100)}; give each request its own id` },
			id: null,
		});
	}
	const rawArguments = argumentsById(request.body);
	const ctx: CallContext = { key: request.callKey!, transport: 'mcp' };
	if (!Array.isArray(request.body) || request.body.length === 0) {
		const answer = await answerMessages(state, ctx, rawArguments, request, request.body);
		reply.code(answer.status);
		if (answer.contentType) reply.header('content-type', answer.contentType);
		return reply.send(answer.text.length > 0 ? answer.text : undefined);
	}
	if (request.body.length > MAX_BATCH_MESSAGES) {
		return reply.code(400).send({
			jsonrpc: '2.0',
			error: { code: -32600, message: `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages` },
			id: null,
		});
	}
	const messages = request.body as unknown[];
	const isNotification = (m: unknown) => isPlainObject(m) && typeof m.method === 'string' && !('id' in m);
	if (messages.every(isNotification)) {
		for (const message of messages) await answerMessages(state, ctx, rawArguments, request, message);
		return reply.code(202).send();
	}
	// One message at a time, as the client reads the answer: a batch of large answers holds the
	// server for other accounts no longer than its largest single answer, and never sits in memory whole.
	async function* answers() {
		let first = true;
		yield '[';
		for (const message of messages) {
			const answer = await answerMessages(state, ctx, rawArguments, request, message);
			if (answer.text.length === 0) continue;
			yield first ? answer.text : `,${answer.text}`;
			first = false;
			await new Promise((resolve) => setImmediate(resolve));
		}
		yield ']';
	}
	return reply.code(200).header('content-type', 'application/json').send(Readable.from(answers()));
}

/** A JSON-RPC batch holds at most this many messages (the SDK allows 100). */
export const MAX_BATCH_MESSAGES = 20;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A well-formed tools/call, answered without the SDK: the same result toMcpResult gives, but its
 * JSON written from the outcome's text (see serialize.ts) instead of serialized three times over,
 * so a large search answers as quickly on MCP as on REST. Anything else goes to the SDK.
 */
function directToolCall(state: ServiceState, ctx: CallContext, request: FastifyRequest, body: unknown) {
	if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
	const { id, params } = body;
	if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
	if (!isPlainObject(params) || typeof params.name !== 'string') return undefined;
	if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
	const version = request.headers['mcp-protocol-version'];
	if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return undefined;
	const outcome = handleTool(state, ctx, params.name, params.arguments ?? {});
	const envelope = outcomeJson(outcome);
	const result = `{"content":[{"type":"text","text":${JSON.stringify(envelope)}}],"structuredContent":${envelope}${outcome.status === 200 ? '' : ',"isError":true'}}`;
	return { status: 200, contentType: 'application/json', text: `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}` };
}

/** One JSON-RPC message (or the SDK's answer to a malformed body) through a fresh stateless SDK server. */
async function answerMessages(
	state: ServiceState,
	ctx: CallContext,
	rawArguments: Map<RequestId, unknown>,
	request: FastifyRequest,
	body: unknown,
): Promise<{ status: number; contentType: string | null; text: string }> {
	const direct = directToolCall(state, ctx, request, body);
	if (direct) return direct;
	// Stateless: a fresh server and transport per message, so any request may come first.
	const server = serverFor(state, ctx, rawArguments);
	const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
	try {
		await server.connect(transport);
		const response = await transport.handleRequest(webRequestOf(request), { parsedBody: body });
		return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
	} finally {
		await server.close();
	}
}

/** MCP: JSON-RPC 2.0 over `POST /mcp` with the same keys, handlers, billing and limits as REST. */
export function registerMcp(app: FastifyInstance, state: ServiceState, guards: ToolRouteGuards): void {
	app.all('/mcp', { onRequest: [guards.postOnly, guards.authenticate], preHandler: guards.preHandler }, (request, reply) =>
		handleMcp(state, request, reply),
	);
}
