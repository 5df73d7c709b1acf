import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { KeyRecord } from './accounts';
import { bearerToken } from './auth';
import { ServiceError, invalidKey, methodNotAllowed, notFound, payloadTooLarge, runtimeError, MCP_UNAUTHORIZED_BODY, validationError } from './errors';
import { MAX_BODY_BYTES } from '../nodes/JobSearch/service';
import { FaultQueue, parseFaultHeader } from './faults';
import type { ServiceState } from './handlers';
import { registerAdmin } from './admin';
import { registerMcp } from './mcp';
import { registerRest } from './rest';

declare module 'fastify' {
	interface FastifyRequest {
		/** The authenticated key of a /v1 or /mcp request. */
		callKey?: KeyRecord;
	}
}

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | void>;

/** What every tool route (REST and MCP) runs before its handler, in this order. */
export interface ToolRouteGuards {
	postOnly: Hook;
	authenticate: Hook;
	preHandler: Hook[];
}

export const BODY_LIMIT_BYTES = MAX_BODY_BYTES;

export interface AppOptions {
	faults: boolean;
	faultQueue: FaultQueue;
	adminToken: string;
	logger: boolean;
}

export function sendError(reply: FastifyReply, error: ServiceError): FastifyReply {
	return reply.code(error.status).headers(error.headers).send(error.body);
}

const isMcp = (request: FastifyRequest) => request.url.split('?')[0] === '/mcp';

/** JSON-RPC's own error shape, for failures on /mcp that happen before a message is read. */
function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
	return reply.code(status).send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** 405 before anything else: the spec gives every other method one answer, with `Allow: POST`. */
export async function postOnly(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
	if (request.method !== 'POST') return sendError(reply, methodNotAllowed());
}

export function authenticate(state: ServiceState) {
	return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
		const key = state.accounts.authenticate(bearerToken(request));
		if (key) {
			request.callKey = key;
			return;
		}
		return isMcp(request) ? reply.code(401).send(MCP_UNAUTHORIZED_BODY) : sendError(reply, invalidKey());
	};
}

/** Fault injection (only when enabled): a header or an armed fault asks for a 500, a delay, a drop or a 200 that is not the envelope. */
function faultHook(options: AppOptions) {
	return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
		const body = request.body as { method?: unknown; params?: { name?: unknown } } | undefined;
		const tool = isMcp(request)
			? body?.method === 'tools/call' && typeof body.params?.name === 'string' ? body.params.name : undefined
			: (request.params as { tool?: string }).tool;
		const fault = parseFaultHeader(request.headers['x-fault']) ?? options.faultQueue.take(tool);
		if (!fault) return;
		if (fault.kind === 'delay') {
			await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
			return;
		}
		if (fault.kind === '500') return sendError(reply, runtimeError());
		if (fault.kind === 'html') {
			return reply.code(200).type('text/html').send('<!doctype html><html><body><h1>Down for maintenance</h1></body></html>');
		}
		if (fault.kind === 'empty') return reply.code(200).send({});
		reply.hijack();
		request.raw.socket.destroy();
		return reply;
	};
}

function mapError(error: Error & { code?: string; statusCode?: number }, request: FastifyRequest, reply: FastifyReply) {
	if (error instanceof ServiceError) return sendError(reply, error);
	const mcp = isMcp(request);
	if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) return sendError(reply, payloadTooLarge());
	if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
		return mcp
			? jsonRpcError(reply, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json')
			: sendError(reply, validationError('Content-Type must be application/json'));
	}
	if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
		// Fastify's body errors (malformed JSON, empty body, bad Content-Length) say nothing internal.
		const message = `Malformed request body: ${error.message}`;
		return mcp ? jsonRpcError(reply, 400, -32700, `Parse error: ${error.message}`) : sendError(reply, validationError(message));
	}
	request.log.error({ err: error }, 'unhandled error');
	return sendError(reply, runtimeError());
}

export function buildApp(state: ServiceState, options: AppOptions): FastifyInstance {
	const app = Fastify({
		// Enforced on the stream as it arrives, and from Content-Length before any of it is read.
		bodyLimit: BODY_LIMIT_BYTES,
		logger: options.logger,
		forceCloseConnections: true,
	});
	const guards: ToolRouteGuards = {
		postOnly,
		authenticate: authenticate(state),
		preHandler: options.faults ? [faultHook(options)] : [],
	};
	registerRest(app, state, guards);
	registerMcp(app, state, guards);
	registerAdmin(app, state, options.adminToken);
	app.setErrorHandler(mapError);
	app.setNotFoundHandler((request, reply) => sendError(reply, notFound(`No route ${request.method} ${request.url}`)));
	return app;
}
