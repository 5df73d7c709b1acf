import { MAX_BODY_LABEL } from '../nodes/JobSearch/service/plans';

/**
 * The service's error bodies (docs/service.md#errors). Every refusal, on either transport, is one of these, so
 * REST sends it as is and MCP wraps the same body in a tool error.
 */
export interface ErrorBody {
	error: string;
	error_code: string;
	[extra: string]: unknown;
}

export class ServiceError extends Error {
	constructor(
		readonly status: number,
		readonly body: ErrorBody,
		readonly headers: Record<string, string> = {},
	) {
		super(body.error);
	}
}

export function serviceError(status: number, code: string, message: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>) {
	return new ServiceError(status, { error: message, error_code: code, ...extra }, headers);
}

export const invalidKey = () => serviceError(401, 'invalid_key', 'Invalid or missing API key. Send Authorization: Bearer gm_...');
export const validationError = (message: string) => serviceError(400, 'validation_error', message);
export const notFound = (message: string) => serviceError(404, 'not_found', message);
export const methodNotAllowed = () =>
	serviceError(405, 'method_not_allowed', 'Method not allowed: use POST.', {}, { Allow: 'POST' });
export const payloadTooLarge = () =>
	serviceError(413, 'payload_too_large', `Request body exceeds the ${MAX_BODY_LABEL} limit.`);
// Deliberately generic: nothing about the cause reaches the client.
export const runtimeError = () => serviceError(500, 'runtime_error', 'Internal error. Retry with exponential backoff.');

/** MCP's own 401 (docs/service.md#authentication), different from the REST body. */
export const MCP_UNAUTHORIZED_BODY = { error: { code: 401, message: 'Invalid or missing API key' } };
