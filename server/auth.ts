import type { FastifyRequest } from 'fastify';

/** The token of `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
	const header = request.headers.authorization;
	const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
	return match?.[1];
}

export function isJsonContentType(value: string | undefined): boolean {
	return (value ?? '').split(';')[0].trim().toLowerCase() === 'application/json';
}
