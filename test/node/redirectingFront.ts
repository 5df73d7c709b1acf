import { createServer, type Server } from 'http';
import { listenOnLoopback } from './loopbackServer';

export interface RedirectingFront {
	url: string;
	/** How many requests reached the front. */
	requests(): number;
	close(): Promise<void>;
}

/**
 * A front that moves every request to `target` with a 301, as an http-to-https redirect does.
 * HTTP clients follow a 301 for a POST with a GET, so the service itself answers 405.
 */
export async function startRedirectingFront(target: string): Promise<RedirectingFront> {
	let count = 0;
	const server: Server = createServer((req, res) => {
		count++;
		req.resume();
		res.writeHead(301, { Location: `${target}${req.url ?? '/'}` });
		res.end();
	});
	const listening = await listenOnLoopback(server);
	return {
		...listening,
		requests: () => count,
	};
}

export interface HeaderRecorder {
	url: string;
	/** The Authorization header of each request that reached it (undefined where none came). */
	authorizations(): Array<string | undefined>;
	close(): Promise<void>;
}

/** Another host: it notes what arrives and answers 405, as the service does to a GET. */
export async function startHeaderRecorder(): Promise<HeaderRecorder> {
	const seen: Array<string | undefined> = [];
	const server: Server = createServer((req, res) => {
		seen.push(req.headers.authorization);
		req.resume();
		res.writeHead(405, { 'Content-Type': 'application/json', Allow: 'POST' });
		res.end(JSON.stringify({ error: 'Method not allowed', error_code: 'method_not_allowed' }));
	});
	const listening = await listenOnLoopback(server);
	return {
		...listening,
		authorizations: () => [...seen],
	};
}
