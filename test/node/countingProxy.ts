import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'http';
import { listenOnLoopback } from './loopbackServer';

export interface CountingProxy {
	url: string;
	/** The most requests that were in flight at once. */
	maxInFlight(): number;
	close(): Promise<void>;
}

/**
 * A pass-through HTTP proxy in front of the real server that counts requests in flight. The first
 * `holdFirst` requests are held until all of them have arrived, so that a node allowed that many
 * at once is seen with that many in flight however slow the machine (no timing decides it).
 */
export async function startCountingProxy(target: string, holdFirst = 0): Promise<CountingProxy> {
	const upstream = new URL(target);
	let inFlight = 0;
	let max = 0;
	const held: (() => void)[] = [];
	const server: Server = createServer((req, res) => {
		inFlight++;
		max = Math.max(max, inFlight);
		const pass = () => forward(req, res);
		if (held.length + 1 < holdFirst) {
			held.push(pass);
			return;
		}
		if (holdFirst > 0) {
			holdFirst = 0;
			for (const release of held.splice(0)) release();
		}
		pass();
	});
	const forward = (req: IncomingMessage, res: ServerResponse) => {
		const outgoing = request(
			{ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
				answer.on('end', () => inFlight--);
			},
		);
		outgoing.on('error', () => {
			inFlight--;
			res.destroy();
		});
		req.pipe(outgoing);
	};
	const listening = await listenOnLoopback(server);
	return {
		...listening,
		maxInFlight: () => max,
	};
}
