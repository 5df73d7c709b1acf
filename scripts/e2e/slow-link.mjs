// A pass-through proxy in front of the reference server: it counts the answers it passes on by
// status, and can make the server slow for a while, as a congested link or an overloaded host
// is: each answer's headers come at once and its body drips in over bodyMs, a piece a second, so
// only a client's total timeout ends the request (an idle timeout never fires).
//   node slow-link.mjs <port> <target url>
//   POST /slow-link/slow?seconds=<s>&bodyMs=<ms>   slow for s seconds from now
//   POST /slow-link/normal                          fast again
//   GET  /slow-link/stats                           {"answered": {"<status>": <count>}} of what it passed on
import { createServer, request } from 'http';

const [port, target] = process.argv.slice(2);
const upstream = new URL(target);
let slowUntilMs = 0;
let bodyMs = 60_000;
const answered = {};
const say = (message) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

function drip(res, body) {
	const pieces = Math.max(1, Math.min(body.length, Math.ceil(bodyMs / 1000)));
	const size = Math.ceil(body.length / pieces);
	let sent = 0;
	const next = () => {
		if (res.destroyed) return;
		const piece = body.subarray(sent, sent + size);
		sent += piece.length;
		if (sent >= body.length) return res.end(piece);
		res.write(piece);
		setTimeout(next, 1000);
	};
	next();
}

const server = createServer((req, res) => {
	const url = new URL(req.url, 'http://link');
	if (url.pathname === '/slow-link/slow' && req.method === 'POST') {
		slowUntilMs = Date.now() + Number(url.searchParams.get('seconds') ?? 60) * 1000;
		bodyMs = Number(url.searchParams.get('bodyMs') ?? 60_000);
		say(`slow until ${new Date(slowUntilMs).toISOString()}, each body over ${bodyMs} ms`);
		return res.end('{"ok":true}');
	}
	if (url.pathname === '/slow-link/normal' && req.method === 'POST') {
		slowUntilMs = 0;
		say('fast again');
		return res.end('{"ok":true}');
	}
	if (url.pathname === '/slow-link/stats' && req.method === 'GET') return res.end(JSON.stringify({ answered }));
	const slow = Date.now() < slowUntilMs;
	const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
		answered[answer.statusCode] = (answered[answer.statusCode] ?? 0) + 1;
		if (!slow) {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
			return;
		}
		const chunks = [];
		answer.on('data', (chunk) => chunks.push(chunk));
		answer.on('end', () => {
			const body = Buffer.concat(chunks);
			const headers = { ...answer.headers };
			delete headers['content-length'];
			res.writeHead(answer.statusCode ?? 502, headers);
			say(`${req.method} ${url.pathname}: ${answer.statusCode}, ${body.length} bytes dripped over ${bodyMs} ms`);
			drip(res, body);
		});
	});
	out.on('error', () => res.destroy());
	req.pipe(out);
});
server.listen(Number(port), '127.0.0.1', () => say(`listening on ${port}, forwarding to ${target}`));
process.on('SIGTERM', () => process.exit(0));
