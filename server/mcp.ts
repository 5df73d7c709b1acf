import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolDefinitions } from '../nodes/JobSearch/filters';
import type { ToolRouteGuards } from './app';
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

function serverFor(state: ServiceState, ctx: CallContext): Server {
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
	server.setRequestHandler(CallToolRequestSchema, (request) =>
		toMcpResult(handleTool(state, ctx, request.params.name, request.params.arguments ?? {})),
	);
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
	// Stateless: a fresh server and transport per request, so any request may come first.
	const server = serverFor(state, { key: request.callKey!, transport: 'mcp' });
	const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
	try {
		await server.connect(transport);
		const response = await transport.handleRequest(webRequestOf(request), { parsedBody: request.body });
		const text = await response.text();
		reply.code(response.status);
		const contentType = response.headers.get('content-type');
		if (contentType) reply.header('content-type', contentType);
		return reply.send(text.length > 0 ? text : undefined);
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
