import { createServer, request, type Server } from 'http';
import type { AddressInfo } from 'net';

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
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		maxInFlight: () => max,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
