import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolDefinitions } from '../nodes/JobSearch/filters';
import type { ToolRouteGuards } from './app';
import { MCP_UNAUTHORIZED_BODY } from './errors';
import { handleTool, type CallContext, type ServiceState, type ToolOutcome } from './handlers';

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
	// One message at a time, yielding between them: a batch of large answers holds the server for
	// other accounts no longer than its largest single answer does.
	const parts: string[] = [];
	for (const message of request.body) {
		const answer = await answerMessages(state, ctx, rawArguments, request, message);
		if (answer.text.length > 0) parts.push(answer.text);
		await new Promise((resolve) => setImmediate(resolve));
	}
	if (parts.length === 0) return reply.code(202).send();
	return reply.code(200).header('content-type', 'application/json').send(`[${parts.join(',')}]`);
}

/** A JSON-RPC batch holds at most this many messages (the SDK allows 100). */
export const MAX_BATCH_MESSAGES = 20;

/** One JSON-RPC message (or the SDK's answer to a malformed body) through a fresh stateless SDK server. */
async function answerMessages(
	state: ServiceState,
	ctx: CallContext,
	rawArguments: Map<RequestId, unknown>,
	request: FastifyRequest,
	body: unknown,
): Promise<{ status: number; contentType: string | null; text: string }> {
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
