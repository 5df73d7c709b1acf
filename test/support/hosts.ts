import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

// Hosts a test puts where the service would be: a host that answers as its script says (a proxy's
// own page, an echo, a trickle), a front that redirects, a host that is not the service at all.
// Loopback only, on a free port each.

export interface Listening {
	url: string;
	/** Stops listening and drops kept-alive sockets. */
	close(): Promise<void>;
}

/** Starts a test HTTP server on a free loopback port. */
export async function listenOnLoopback(server: Server): Promise<Listening> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export interface SeenRequest {
	method: string;
	url: string;
	authorization?: string;
	body: string;
}

export interface ScriptedHost extends Listening {
	/** Every request that reached the host, in order. */
	requests(): SeenRequest[];
}

/** How the host answers one request; `index` counts the requests so far from 0. */
export type Script = (request: SeenRequest, res: ServerResponse, index: number) => void;

/** A host that answers every request as `script` says, once it has read the whole request. */
export async function startScriptedHost(script: Script): Promise<ScriptedHost> {
	const seen: SeenRequest[] = [];
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const request: SeenRequest = {
				method: req.method ?? '',
				url: req.url ?? '',
				authorization: req.headers.authorization,
				body: Buffer.concat(chunks).toString('utf8'),
			};
			seen.push(request);
			script(request, res, seen.length - 1);
		});
	});
	const listening = await listenOnLoopback(server);
	return { ...listening, requests: () => [...seen] };
}

/** Answers with `status` and `body` (JSON unless a string), with optional extra headers. */
export function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	const type = typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json';
	res.writeHead(status, { 'Content-Type': type, ...headers });
	res.end(text);
}

/**
 * A front that moves every request to `target` with a 301, as an http-to-https redirect does.
 * HTTP clients follow a 301 for a POST with a GET.
 */
export async function startRedirectingFront(target: string): Promise<ScriptedHost> {
	return await startScriptedHost((request, res) => answer(res, 301, '', { Location: `${target}${request.url}` }));
}

/** Another host, which is not the service: it answers 405, as the service does to a GET. */
export async function startOtherHost(): Promise<ScriptedHost> {
	return await startScriptedHost((_request, res) =>
		answer(res, 405, { error: 'Method not allowed', error_code: 'method_not_allowed' }, { Allow: 'POST' }),
	);
}
