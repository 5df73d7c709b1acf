import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'http';

import { listenOnLoopback, type Listening } from './hosts';

export interface Proxy extends Listening {
	/** The JSON body of every request that passed, in order ({} for one that was not JSON). */
	bodies: Array<Record<string, unknown>>;
	/** The most requests that were in flight at once. */
	maxInFlight(): number;
}

export interface ProxyHooks {
	/**
	 * Holds the first `holdFirst` requests until all of them have arrived, so that a node allowed
	 * that many at once is seen with that many in flight however slow the machine.
	 */
	holdFirst?: number;
	/**
	 * Called once the n-th answer (1-based) is back from the target, before the client gets it:
	 * the moment between two pages of a walk, or where a slow host's time passes.
	 */
	afterAnswer?(n: number): void;
	/**
	 * Asked with each request's JSON body once its answer is back: the client gets the answer
	 * only when the returned promise settles, so a test can let another request's answer go first.
	 */
	holdAnswer?(body: Record<string, unknown>): Promise<void> | undefined;
	/** Rewrites each 2xx JSON answer before the client gets it: a search engine in front of the service that reports differently. */
	reshapeAnswer?(answer: Record<string, unknown>): void;
}

function jsonOf(body: Buffer): Record<string, unknown> {
	try {
		return JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
	} catch {
		return {};
	}
}

/** A pass-through proxy in front of the reference server: the real service, watched or slowed. */
export async function startProxy(target: string, { holdFirst = 0, afterAnswer, holdAnswer, reshapeAnswer }: ProxyHooks = {}): Promise<Proxy> {
	const upstream = new URL(target);
	const bodies: Array<Record<string, unknown>> = [];
	const held: Array<() => void> = [];
	let inFlight = 0;
	let max = 0;
	let answered = 0;
	const server: Server = createServer((req, res) => {
		inFlight++;
		max = Math.max(max, inFlight);
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const sent = Buffer.concat(chunks);
			bodies.push(jsonOf(sent));
			const forward = () => {
				const outgoing = request(
					{ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
					(reply) => {
						const back: Buffer[] = [];
						reply.on('data', (chunk: Buffer) => back.push(chunk));
						reply.on('end', () => {
							afterAnswer?.(++answered);
							const answer = () => {
								inFlight--;
								const status = reply.statusCode ?? 502;
								let body = Buffer.concat(back);
								const headers = { ...reply.headers };
								const json = reshapeAnswer && status >= 200 && status < 300 ? jsonOf(body) : {};
								if (reshapeAnswer && Object.keys(json).length > 0) {
									reshapeAnswer(json);
									body = Buffer.from(JSON.stringify(json));
									delete headers['transfer-encoding'];
									headers['content-length'] = String(body.length);
								}
								res.writeHead(status, headers);
								res.end(body);
							};
							const hold = holdAnswer?.(jsonOf(sent));
							if (hold) void hold.then(answer);
							else answer();
						});
					},
				);
				outgoing.on('error', () => {
					inFlight--;
					res.destroy();
				});
				outgoing.end(sent);
			};
			if (held.length + 1 < holdFirst) {
				held.push(forward);
				return;
			}
			if (holdFirst > 0) {
				holdFirst = 0;
				for (const release of held.splice(0)) release();
			}
			forward();
		});
	});
	const listening = await listenOnLoopback(server);
	return { ...listening, bodies, maxInFlight: () => max };
}

/** A proxy whose every answer arrives `delayMs` later on the test's faked clock: a slow host, without waiting in real time. */
export async function startSlowProxy(target: string, delayMs: number, time: { set(ms: number): void }): Promise<Proxy> {
	return await startProxy(target, { afterAnswer: () => time.set(Date.now() + delayMs) });
}

/** What the proxy does with one request. */
export type FrontAction =
	/** Passed on to the reference server, answered by it. */
	| 'pass'
	/** Kept until the test lets them go on (releaseOne, passThrough): a slow host, a poll in flight. */
	| 'hold'
	/** Never answered: the client's own timeout ends them. */
	| 'stall'
	/** Answered by the proxy itself, as a host in front of the service would. */
	| { status: number; body: unknown };

/** How the proxy treats the requests that reach it from now on: one way for all, or chosen by each request's body. */
export type FrontMode = FrontAction | ((requestBody: string) => FrontAction);

export interface FrontProxy extends Listening {
	mode: FrontMode;
	/** Requests that reached the proxy, whatever it did with them. */
	received: number;
	/** When each of them arrived (Date.now(), the test's clock). */
	arrivals: number[];
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
		arrivals: [] as number[],
	};
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			proxy.received++;
			proxy.arrivals.push(Date.now());
			const body = Buffer.concat(chunks);
			const mode = typeof proxy.mode === 'function' ? proxy.mode(body.toString()) : proxy.mode;
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
