import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyRecord } from './accounts';
import { bearerToken } from './auth';
import { invalidKey, methodNotAllowed, MCP_UNAUTHORIZED_BODY, type ServiceError } from './errors';
import type { ServiceState } from './handlers';

// The reply helpers and guards every route module shares: here rather than in app.ts, which
// imports the route modules, so that no module imports one that imports it back.

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

export function sendError(reply: FastifyReply, error: ServiceError): FastifyReply {
	return reply.code(error.status).headers(error.headers).send(error.body);
}

export const isMcp = (request: FastifyRequest) => request.url.split('?')[0] === '/mcp';

/** 405 before anything else: the spec gives every other method one answer, with `Allow: POST`. */
export async function postOnly(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
	if (request.method !== 'POST') return sendError(reply, methodNotAllowed());
}

/** What the server tells a test once it has accepted a request's key, before the body is read. */
export interface AuthenticatedRequest {
	path: string;
	keyId: string;
}

export function authenticate(state: ServiceState, onAuthenticated?: (request: AuthenticatedRequest) => void) {
	return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
		const key = state.accounts.authenticate(bearerToken(request));
		if (key) {
			request.callKey = key;
			onAuthenticated?.({ path: request.url.split('?')[0], keyId: key.id });
			return;
		}
		return isMcp(request) ? reply.code(401).send(MCP_UNAUTHORIZED_BODY) : sendError(reply, invalidKey());
	};
}
