import { createServer, request, type IncomingMessage, type ServerResponse } from 'http';

import { listenOnLoopback, type Listening } from '../node/loopbackServer';

/** How the proxy treats the requests that reach it from now on. */
export type FrontMode =
	/** Passed on to the reference server, answered by it. */
	| 'pass'
	/** Kept until the test lets them go on (releaseOne, releaseAll): a slow host, a poll in flight. */
	| 'hold'
	/** Never answered: the client's own timeout ends them. */
	| 'stall'
	/** Answered by the proxy itself, as a host in front of the service would. */
	| { status: number; body: unknown };

export interface FrontProxy extends Listening {
	mode: FrontMode;
	/** Requests that reached the proxy, whatever it did with them. */
	received: number;
	/** Resolves once at least `count` requests are being held. */
	holding(count?: number): Promise<void>;
	/** Lets the oldest held request go on to the server. */
	releaseOne(): void;
	/** Lets every held request go on, and the next ones pass straight through. */
	passThrough(): void;
}

/**
 * A host in front of the reference server: a slow host, one that never answers, or one that
 * answers in the service's place, switched by the test between polls (or during one).
 */
export async function startFrontProxy(target: string): Promise<FrontProxy> {
	const upstream = new URL(target);
	const held: Array<() => void> = [];
	const waiting: Array<{ count: number; resolve: () => void }> = [];
	const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse) => {
		const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		out.on('error', () => res.destroy());
		out.end(body);
	};
	const proxy = {
		mode: 'pass' as FrontMode,
		received: 0,
	};
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			proxy.received++;
			const body = Buffer.concat(chunks);
			const mode = proxy.mode;
			if (mode === 'pass') return forward(req, body, res);
			if (mode === 'stall') return;
			if (mode === 'hold') {
				held.push(() => forward(req, body, res));
				for (const w of waiting.filter((w) => held.length >= w.count)) {
					waiting.splice(waiting.indexOf(w), 1);
					w.resolve();
				}
				return;
			}
			res.writeHead(mode.status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(mode.body));
		});
	});
	const listening = await listenOnLoopback(server);
	return Object.assign(proxy, {
		...listening,
		holding: (count = 1) => new Promise<void>((resolve) => (held.length >= count ? resolve() : waiting.push({ count, resolve }))),
		releaseOne: () => held.shift()?.(),
		passThrough: () => {
			proxy.mode = 'pass';
			held.splice(0).forEach((go) => go());
		},
	});
}
