import { spawn } from 'child_process';
import { writeFileSync, mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { createInterface } from 'readline';
import axios from 'axios';
import { parseCommandLine, UsageError } from '../../server/cli';
import { resolveLiveOptions } from '../../server/liveOptions';

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

describe('the server command line', () => {
	const live = (args: string[]) => {
		const parsed = parseCommandLine(args);
		if (parsed.help) throw new Error('help');
		return parsed.options.live;
	};

	it('maps each live shape flag to its LiveOptions field', () => {
		expect(
			live([
				'--live',
				'--out-of-order',
				'--postings-per-hour',
				'1500',
				'--poisson',
				'--approximate-totals',
				'--unstable-tie-order',
				'--burst',
				'2026-11-20T14:00:00.000Z,3000,120000',
				'--burst',
				'1795190400000,10,0',
				'--repost-share',
				'0.05',
				'--round-created-at-ms',
				'1000',
				'--skew-ms=-60000',
			]),
		).toEqual({
			model: 'out-of-order',
			postingsPerHour: 1500,
			arrivals: 'poisson',
			approximateTotals: true,
			unstableTieOrder: true,
			bursts: [
				{ at: '2026-11-20T14:00:00.000Z', count: 3000, spreadMs: 120_000 },
				{ at: 1795190400000, count: 10, spreadMs: 0 },
			],
			repostShare: 0.05,
			roundCreatedAtMs: 1000,
			skewMs: -60_000,
		});
	});

	it('leaves every shape off without its flag, and adds them to --live-fast too', () => {
		expect(live(['--live'])).toEqual({ model: 'batch' });
		expect(live([])).toBeUndefined();
		expect(live(['--live-fast', '--repost-share', '0.1'])).toMatchObject({ postingsPerHour: 360, repostShare: 0.1 });
	});

	it.each([
		[['--live', '--skew-ms', 'soon'], /--skew-ms must be a number, got "soon"/],
		[['--live', '--postings-per-hour', ''], /--postings-per-hour must be a number, got ""/],
		[['--live', '--burst', '2026-11-20T14:00:00Z,3000'], /--burst takes <at>,<count>,<spreadMs>, got "2026-11-20T14:00:00Z,3000"/],
		[['--live', '--burst', '0,many,1000'], /--burst count must be a number, got "many"/],
		[['--burst', '0,10,1000'], /--burst shapes live mode: add --live/],
		[['--approximate-totals'], /--approximate-totals shapes live mode: add --live/],
		[['--live', '--skew-ms', '-60000'], /--skew-ms' argument is ambiguous/],
	])('refuses %j, naming the flag', (args, message) => {
		expect(() => parseCommandLine(args)).toThrow(UsageError);
		expect(() => parseCommandLine(args)).toThrow(message);
	});

	it('leaves the ranges to the live options, which name the field', () => {
		expect(() => resolveLiveOptions(live(['--live', '--burst', 'noon,3000,60000'])!)).toThrow(/live option bursts\[0\]\.at must be epoch milliseconds or an ISO 8601 date/);
	});
});
