import { createServer, request, type Server } from 'http';

import { listenOnLoopback } from '../node/loopbackServer';
import type { TimeControl } from './scriptedDay';

/**
 * A pass-through proxy in front of the reference server whose every answer arrives `delayMs`
 * later on the test's faked clock: a slow host, without waiting in real time.
 */
export async function startSlowProxy(target: string, delayMs: number, time: TimeControl) {
	const upstream = new URL(target);
	const server: Server = createServer((req, res) => {
		const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
			time.set(Date.now() + delayMs);
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		out.on('error', () => res.destroy());
		req.pipe(out);
	});
	return await listenOnLoopback(server);
}
