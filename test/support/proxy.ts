import { createServer, request, type Server } from 'http';

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
}

function jsonOf(body: Buffer): Record<string, unknown> {
	try {
		return JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
	} catch {
		return {};
	}
}

/** A pass-through proxy in front of the reference server: the real service, watched or slowed. */
export async function startProxy(target: string, { holdFirst = 0, afterAnswer }: ProxyHooks = {}): Promise<Proxy> {
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
							inFlight--;
							res.writeHead(reply.statusCode ?? 502, reply.headers);
							res.end(Buffer.concat(back));
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
