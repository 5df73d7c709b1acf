import { createServer, type IncomingMessage, type ServerResponse } from 'http';
import { listenOnLoopback } from './loopbackServer';

export interface SeenRequest {
	method: string;
	url: string;
	authorization?: string;
	body: string;
}

export interface ScriptedHost {
	url: string;
	/** Every request that reached the host, in order. */
	requests(): SeenRequest[];
	close(): Promise<void>;
}

/** How the host answers one request; `index` counts the requests so far from 0. */
export type Script = (request: SeenRequest, res: ServerResponse, index: number) => void;

/**
 * A host that is not the service, or misbehaves: a proxy answering with its own page, a host
 * that echoes the request back, one that trickles its answer. Loopback only; it reads the whole
 * request before the script answers.
 */
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
