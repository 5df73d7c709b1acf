import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'http';
import type { Socket } from 'net';
import { ServiceError, methodNotAllowed, notFound, payloadTooLarge, runtimeError, validationError } from './errors';
import { MAX_BODY_BYTES } from '../nodes/JobSearch/service/plans';
import { FaultQueue, parseFaultHeader } from './faults';
import { JsonBodyError, parseJsonBody } from './jsonBody';
import { validators } from './validation';
import type { ServiceState } from './handlers';
import { registerAdmin } from './admin';
import { registerMcp } from './mcp';
import { registerRest } from './rest';
import { authenticate, isMcp, postOnly, sendError, type AuthenticatedRequest, type ToolRouteGuards } from './routeGuards';

export type { AuthenticatedRequest } from './routeGuards';

export interface AppOptions {
	faults: boolean;
	faultQueue: FaultQueue;
	adminToken: string;
	logger: boolean;
	/** Time a client has to send a whole request, headers and body; then 408 and the connection closes. */
	requestTimeoutMs?: number;
	/** See StartServerOptions.faultSleep. */
	faultSleep?: (ms: number) => Promise<void>;
	/** See StartServerOptions.onAuthenticated. */
	onAuthenticated?: (request: AuthenticatedRequest) => void;
}

/**
 * A slow or stalled client holds a connection (and, for a key revoked meanwhile, a pending
 * call) for at most this long. 10 MiB at a crawling 1 Mbit/s takes 84 s.
 */
const REQUEST_TIMEOUT_MS = 120_000;
/** Headers are small: a client that has not sent them by then is not going to. */
const HEADERS_TIMEOUT_MS = 20_000;

/** JSON-RPC's own error shape, for failures on /mcp that happen before a message is read. */
function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
	return reply.code(status).send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

const realSleep = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Fault injection (only when enabled): a header or an armed fault asks for a 500, a delay, a drop or a 200 that is not the envelope. */
function faultHook(options: AppOptions) {
	return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
		const body = request.body as { method?: unknown; params?: { name?: unknown } } | undefined;
		const tool = isMcp(request)
			? body?.method === 'tools/call' && typeof body.params?.name === 'string' ? body.params.name : undefined
			: (request.params as { tool?: string }).tool;
		const fault = parseFaultHeader(request.headers['x-fault']) ?? options.faultQueue.take('transport', tool, request.callKey?.id);
		if (!fault) return;
		if (fault.kind === 'delay') {
			await (options.faultSleep ?? realSleep)(fault.delayMs);
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

/** A request body past the cap is read and dropped up to this much more, then the connection is cut. */
const MAX_DRAIN_BYTES = 4 * MAX_BODY_BYTES;

function rawResponse(status: number, body: unknown): string {
	const text = JSON.stringify(body);
	return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
}

/**
 * The 413, and then the rest of the body is read and dropped before the connection closes. Node
 * would close it at once, while the client is still sending: a client such as axios then sees
 * EPIPE or ECONNRESET instead of the 413 and its message. The drain is bounded by MAX_DRAIN_BYTES
 * and by the request timeout, and costs no work beyond discarding bytes.
 */
function answerTooLarge(request: FastifyRequest, reply: FastifyReply): FastifyReply {
	const error = payloadTooLarge();
	const socket = request.raw.socket;
	reply.hijack();
	if (socket.destroyed) return reply;
	socket.write(rawResponse(error.status, error.body));
	const incoming = request.raw;
	if (incoming.complete) {
		socket.end();
		return reply;
	}
	let drained = 0;
	incoming.on('data', (chunk: Buffer) => {
		drained += chunk.length;
		if (drained > MAX_DRAIN_BYTES) socket.destroy();
	});
	incoming.once('end', () => socket.end());
	incoming.once('error', () => socket.destroy());
	incoming.resume();
	return reply;
}

function mapError(error: Error & { code?: string; statusCode?: number }, request: FastifyRequest, reply: FastifyReply) {
	if (error instanceof ServiceError) return sendError(reply, error);
	const mcp = isMcp(request);
	if (error instanceof JsonBodyError) {
		return mcp ? jsonRpcError(reply, 400, -32700, `Parse error: ${error.message}`) : sendError(reply, validationError(error.message));
	}
	if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) return answerTooLarge(request, reply);
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

/**
 * Errors Node's HTTP parser meets before any route runs (malformed request line, oversized headers,
 * the request timeout): answered with the spec's error shape, then the connection closes.
 */
function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
	if (error.code === 'ECONNRESET' || socket.destroyed) return;
	const [status, code, message] =
		error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
			? [408, 'request_timeout', 'The request was not received in time; send it again.']
			: error.code === 'HPE_HEADER_OVERFLOW'
				? [431, 'validation_error', 'Request headers are too large.']
				: [400, 'validation_error', 'Malformed HTTP request.'];
	if (socket.writable && socket.bytesWritten === 0) socket.write(rawResponse(status, { error: message, error_code: code }));
	socket.destroy();
}

/** Every route of the service takes POST only: another method on a tool's path is a 405, not a 404. */
function isServicePath(url: string): boolean {
	const path = url.split('?')[0];
	return path === '/mcp' || path.startsWith('/v1/');
}

export function buildApp(state: ServiceState, options: AppOptions): FastifyInstance {
	const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
	// Compiled now, so the first request does not pay for it while others wait.
	validators();
	const app = Fastify({
		// Enforced on the stream as it arrives, and from Content-Length before any of it is read.
		bodyLimit: MAX_BODY_BYTES,
		logger: options.logger,
		forceCloseConnections: true,
		requestTimeout,
		// A connection silent for twice that long (a client that stopped reading its answer, say) is
		// closed; longer than the request timeout, so a stalled request still gets its 408 first.
		connectionTimeout: 2 * requestTimeout,
		http: {
			headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
			// How often Node looks for expired requests (its default, 30 s, would stretch short timeouts).
			connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(requestTimeout / 4))),
		},
		clientErrorHandler,
		frameworkErrors: (error, request, reply) => {
			void sendError(reply, validationError(`Malformed request: ${error.message}`));
		},
	});
	// A plain JSON.parse after a bounded shape check: see jsonBody.ts.
	app.removeContentTypeParser('application/json');
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
		try {
			done(null, parseJsonBody(text as string));
		} catch (error) {
			done(error as Error, undefined);
		}
	});
	const guards: ToolRouteGuards = {
		postOnly,
		authenticate: authenticate(state, options.onAuthenticated),
		preHandler: options.faults ? [faultHook(options)] : [],
	};
	registerRest(app, state, guards);
	registerMcp(app, state, guards);
	registerAdmin(app, state, options.adminToken);
	app.setErrorHandler(mapError);
	app.setNotFoundHandler((request, reply) =>
		request.method !== 'POST' && isServicePath(request.url)
			? sendError(reply, methodNotAllowed())
			: sendError(reply, notFound(`No route ${request.method} ${request.url.slice(0, 200)}`)),
	);
	return app;
}
