import { createServer, request, type Server } from 'http';

import { listenOnLoopback } from '../support/hosts';

export interface RowLedger {
	url: string;
	/** How many times each job uid was returned (and so billed) by a search through this proxy. */
	bought(): Map<string, number>;
	close(): Promise<void>;
}

/**
 * A pass-through proxy in front of the reference server that keeps a ledger of the rows it
 * passes back: every job of every search answer is a billed row.
 */
export async function startRowLedger(target: string): Promise<RowLedger> {
	const upstream = new URL(target);
	const bought = new Map<string, number>();
	const server: Server = createServer((req, res) => {
		const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
			const chunks: Buffer[] = [];
			answer.on('data', (chunk: Buffer) => chunks.push(chunk));
			answer.on('end', () => {
				const body = Buffer.concat(chunks);
				if (req.url?.endsWith('/search_jobs') && answer.statusCode === 200) {
					const jobs = (JSON.parse(body.toString('utf8')) as { data?: { jobs?: { uid: string }[] } }).data?.jobs ?? [];
					for (const { uid } of jobs) bought.set(uid, (bought.get(uid) ?? 0) + 1);
				}
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				res.end(body);
			});
		});
		out.on('error', () => res.destroy());
		req.pipe(out);
	});
	const listening = await listenOnLoopback(server);
	return { ...listening, bought: () => new Map(bought) };
}
