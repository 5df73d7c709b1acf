import { createHash, timingSafeEqual } from 'crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { KeyLimitError } from './accounts';
import { bearerToken } from './auth';
import { notFound, serviceError, validationError } from './errors';
import { injectFault, type Fault } from './faults';
import type { ServiceState } from './handlers';
import { PLAN_NAMES } from './plans';
import type { Plan } from './model';
import { sendError } from './routeGuards';

const digest = (text: string) => createHash('sha256').update(text).digest();

function isOptionalBalance(value: unknown): boolean {
	return value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0);
}

/**
 * The dashboard's part of the service, as an API for tests and local use: accounts, and keys
 * issued (shown once) and revoked. Guarded by the admin token.
 */
export function registerAdmin(app: FastifyInstance, state: ServiceState, adminToken: string): void {
	const expected = digest(adminToken);
	const guard = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
		const token = bearerToken(request);
		if (!token || !timingSafeEqual(digest(token), expected)) {
			return sendError(reply, serviceError(401, 'invalid_admin_token', 'Missing or wrong admin token'));
		}
	};

	app.post('/admin/accounts', { onRequest: guard }, async (request, reply) => {
		const body = (request.body ?? {}) as { id?: unknown; plan?: unknown; poolMicrocents?: unknown; packMicrocents?: unknown };
		if (!PLAN_NAMES.includes(body.plan as Plan)) return sendError(reply, validationError(`plan must be one of ${PLAN_NAMES.join(', ')}`));
		if (body.id !== undefined && (typeof body.id !== 'string' || body.id.length === 0)) return sendError(reply, validationError('id must be a non-empty string'));
		if (!isOptionalBalance(body.poolMicrocents) || !isOptionalBalance(body.packMicrocents)) {
			return sendError(reply, validationError('poolMicrocents and packMicrocents must be non-negative integers'));
		}
		if (typeof body.id === 'string' && state.accounts.get(body.id)) {
			return sendError(reply, serviceError(409, 'conflict', `Account ${body.id} already exists`));
		}
		const account = state.accounts.createAccount({
			id: body.id as string | undefined,
			plan: body.plan as Plan,
			poolMicrocents: body.poolMicrocents as number | undefined,
			packMicrocents: body.packMicrocents as number | undefined,
		});
		return reply.code(201).send({ id: account.id, key: state.accounts.issueKey(account.id) });
	});

	app.get<{ Params: { id: string } }>('/admin/accounts/:id', { onRequest: guard }, async (request, reply) => {
		const account = state.accounts.get(request.params.id);
		if (!account) return sendError(reply, notFound(`No account ${request.params.id}`));
		return { id: account.id, plan: account.plan, poolMicrocents: account.poolMicrocents, packMicrocents: account.packMicrocents };
	});

	app.post<{ Params: { id: string } }>('/admin/accounts/:id/keys', { onRequest: guard }, async (request, reply) => {
		if (!state.accounts.get(request.params.id)) return sendError(reply, notFound(`No account ${request.params.id}`));
		try {
			return reply.code(201).send({ key: state.accounts.issueKey(request.params.id) });
		} catch (error) {
			if (error instanceof KeyLimitError) return sendError(reply, serviceError(409, 'key_limit_reached', error.message));
			throw error;
		}
	});

	// Faults for a server in another process (the e2e's): the same as admin.injectFault in process.
	app.post('/admin/faults', { onRequest: guard }, async (request, reply) => {
		if (!state.faults) return sendError(reply, serviceError(409, 'faults_disabled', 'Fault injection is off: start the server with --faults'));
		const body = request.body;
		if (typeof body !== 'object' || body === null || Array.isArray(body)) return sendError(reply, validationError('the body must be a fault object { kind, ... }'));
		try {
			injectFault(state, body as Fault);
		} catch (error) {
			return sendError(reply, validationError((error as Error).message));
		}
		return reply.code(201).send({ armed: true });
	});

	app.post('/admin/faults/clear', { onRequest: guard }, async () => ({ cleared: state.faults?.clear() ?? 0 }));

	app.post('/admin/keys/revoke', { onRequest: guard }, async (request, reply) => {
		const key = (request.body as { key?: unknown } | undefined)?.key;
		if (typeof key !== 'string') return sendError(reply, validationError('key is required'));
		return { revoked: state.accounts.revokeKey(key) };
	});
}
