import { createServer, request, type Server } from 'http';

import { listenOnLoopback } from './loopbackServer';

export interface BetweenPagesProxy {
	url: string;
	/** The JSON body of every request that passed, in order. */
	bodies: Array<Record<string, unknown>>;
	close(): Promise<void>;
}

/**
 * A pass-through proxy in front of the real reference server that calls `afterAnswer(n)` once the
 * n-th answer (1-based) is back from the server and before the node sees it: the moment between two
 * pages of a walk, where a test removes a job or arms a fault on the server itself.
 */
export async function startBetweenPagesProxy(target: string, afterAnswer: (n: number) => void): Promise<BetweenPagesProxy> {
	const upstream = new URL(target);
	const bodies: Array<Record<string, unknown>> = [];
	let answered = 0;
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const sent = Buffer.concat(chunks);
			bodies.push(JSON.parse(sent.toString('utf8') || '{}') as Record<string, unknown>);
			const forward = request(
				{ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
				(answer) => {
					const back: Buffer[] = [];
					answer.on('data', (chunk: Buffer) => back.push(chunk));
					answer.on('end', () => {
						afterAnswer(++answered);
						res.writeHead(answer.statusCode ?? 502, answer.headers);
						res.end(Buffer.concat(back));
					});
				},
			);
			forward.on('error', () => res.destroy());
			forward.end(sent);
		});
	});
	const listening = await listenOnLoopback(server);
	return { ...listening, bodies };
}
