import { createServer, request, type Server } from 'http';
import { listenOnLoopback } from './loopbackServer';

export interface CountingProxy {
	url: string;
	/** The most requests that were in flight at once. */
	maxInFlight(): number;
	close(): Promise<void>;
}

/** A pass-through HTTP proxy in front of the real server that counts requests in flight. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
	const upstream = new URL(target);
	let inFlight = 0;
	let max = 0;
	const server: Server = createServer((req, res) => {
		inFlight++;
		max = Math.max(max, inFlight);
		const forward = request(
			{ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
				answer.on('end', () => inFlight--);
			},
		);
		forward.on('error', () => {
			inFlight--;
			res.destroy();
		});
		req.pipe(forward);
	});
	const listening = await listenOnLoopback(server);
	return {
		...listening,
		maxInFlight: () => max,
	};
}
