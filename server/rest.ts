import type { FastifyInstance } from 'fastify';
import { TOOL_NAMES } from '../nodes/JobSearch/filters';
import { isJsonContentType } from './auth';
import { notFound, validationError } from './errors';
import { handleTool, isToolName, type ServiceState } from './handlers';
import { sendError, type ToolRouteGuards } from './routeGuards';
import { outcomeJson } from './serialize';

/** REST: `POST /v1/<tool>`; the body is the tool input itself, the answer the spec's envelope. */
export function registerRest(app: FastifyInstance, state: ServiceState, guards: ToolRouteGuards): void {
	app.all<{ Params: { tool: string } }>(
		'/v1/:tool',
		{
			onRequest: [
				guards.postOnly,
				// An unknown tool is a 404 whatever the key.
				async (request, reply) => {
					if (!isToolName(request.params.tool)) {
						return sendError(reply, notFound(`Unknown tool "${request.params.tool}". Tools: ${TOOL_NAMES.join(', ')}`));
					}
				},
				guards.authenticate,
			],
			preHandler: guards.preHandler,
		},
		async (request, reply) => {
			if (!isJsonContentType(request.headers['content-type'])) {
				return sendError(reply, validationError('Content-Type must be application/json'));
			}
			const outcome = handleTool(state, { key: request.callKey!, transport: 'rest' }, request.params.tool, request.body);
			return reply
				.code(outcome.status)
				.headers(outcome.headers)
				.header('content-type', 'application/json; charset=utf-8')
				.send(outcomeJson(outcome));
		},
	);
}
