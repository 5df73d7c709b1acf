import { spawn } from 'child_process';
import { writeFileSync, mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { createInterface } from 'readline';
import axios from 'axios';

// `npm run server` started as a process: each start compiles the server with ts-node (seconds),
// so these are in the long suite; the command line's parsing is checked in cli.test.ts.

const ROOT = join(__dirname, '..', '..');

// What `npm run server` runs (ts-node, transpile only), started with node itself: npm would add
// about a second per test and nothing the CLI prints. Detached, so the whole group stops.
function startCli(args: string[]) {
	const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'server/cli.ts', ...args], {
		cwd: ROOT,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	const stop = () => {
		try {
			process.kill(-child.pid!, 'SIGTERM');
		} catch {
			// already gone
		}
	};
	const lines = createInterface({ input: child.stdout! });
	const read: string[] = [];
	const firstLines = (count: number) =>
		new Promise<string[]>((resolve, reject) => {
			lines.on('line', (line) => {
				read.push(line);
				if (read.length === count) resolve(read);
			});
			child.on('exit', (code) => reject(new Error(`exited ${code}`)));
		});
	return { child, firstLines, stop };
}

/** Runs the command to its end: what it printed and its exit code. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
	const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'server/cli.ts', ...args], { cwd: ROOT });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk) => (stdout += chunk));
	child.stderr.on('data', (chunk) => (stderr += chunk));
	return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('the server command (npm run server)', () => {
	it('prints exactly "listening on <url>" first, then demo keys that work', async () => {
		const { firstLines, stop } = startCli(['--port', '0', '--jobs', '30', '--seed', '2']);
		try {
			const [first, , free] = await firstLines(3);
			expect(first).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
			const url = first.slice('listening on '.length);
			const key = /demo key \(free\): (gm_\S+)/.exec(free)![1];
			const res = await axios.post(`${url}/v1/search_jobs`, { limit: 100 }, { headers: { authorization: `Bearer ${key}` } });
			expect(res.data.data.total).toBe(30);
		} finally {
			stop();
		}
	});

	it('loads accounts from a file, hashing their keys and refusing revoked ones', async () => {
		const file = join(mkdtempSync(join(tmpdir(), 'server-cli-')), 'accounts.json');
		const key = 'gm_dGhpc2lzYW5leGFtcGxla2V5';
		const revoked = 'gm_cmV2b2tlZA';
		writeFileSync(file, JSON.stringify({ accounts: [{ id: 'a', plan: 'pro', poolMicrocents: 1000, packMicrocents: 0, keys: [key], revokedKeys: [revoked] }] }));
		const { firstLines, stop } = startCli(['--port', '0', '--accounts', file, '--jobs', '5', '--faults']);
		try {
			const [first] = await firstLines(1);
			const url = first.slice('listening on '.length);
			const ok = await axios.post(`${url}/v1/search_jobs`, { limit: 1 }, { headers: { authorization: `Bearer ${key}` } });
			expect(ok.data.usage).toEqual({ consumedMicrocents: 1000, remainingMicrocents: 0 });
			const refused = await axios.post(`${url}/v1/search_jobs`, {}, { headers: { authorization: `Bearer ${revoked}` }, validateStatus: () => true });
			expect(refused.status).toBe(401);
		} finally {
			stop();
		}
	});

	it('lists a flag for every live shape in --help, with its LiveOptions field', async () => {
		const { code, stdout } = await runCli(['--help']);
		expect(code).toBe(0);
		for (const [flag, field] of [
			['--postings-per-hour', 'postingsPerHour'],
			['--poisson', "arrivals: 'poisson'"],
			['--approximate-totals', 'approximateTotals'],
			['--unstable-tie-order', 'unstableTieOrder'],
			['--burst', 'bursts'],
			['--repost-share', 'repostShare'],
			['--round-created-at-ms', 'roundCreatedAtMs'],
			['--skew-ms', 'skewMs'],
		]) {
			expect(stdout).toMatch(new RegExp(`${flag} .*\\[${field}\\]`, 's'));
		}
	});

	it('passes the live shape flags to the server', async () => {
		const { firstLines, stop } = startCli(['--port', '0', '--jobs', '1500', '--live', '--round-created-at-ms', '60000', '--approximate-totals']);
		try {
			const [first, , free] = await firstLines(3);
			const url = first.slice('listening on '.length);
			const key = /demo key \(free\): (gm_\S+)/.exec(free)![1];
			const res = await axios.post(`${url}/v1/search_jobs`, { limit: 50 }, { headers: { authorization: `Bearer ${key}` } });
			expect(res.data.data.total).toBe(1000);
			expect(res.data.data.jobs.every((job: { createdAt: string }) => job.createdAt.endsWith(':00.000Z'))).toBe(true);
		} finally {
			stop();
		}
	});

	it('refuses a live option out of range with a message naming it, and exits 2', async () => {
		const { code, stderr } = await runCli(['--port', '0', '--live', '--repost-share', '2']);
		expect(code).toBe(2);
		expect(stderr).toMatch(/live option repostShare must be a number from 0 to 1, got 2/);
		expect(stderr).toContain('Usage: npm run server');
	});
});
