import { readFileSync } from 'fs';
import { parseArgs } from 'util';
import type { AccountSeed } from './accounts';
import { startServer, type StartServerOptions } from './index';
import type { Burst, LiveOptions } from './liveOptions';
import { PLAN_NAMES } from './plans';
import type { Plan } from './model';

const USAGE = `Usage: npm run server -- [--port <p>] [--accounts <file>] [--jobs <n>] [--seed <s>] [--faults] [--live] [--out-of-order] [--admin-token <t>]
                             [live shapes, with --live or --live-fast: see below]

  --port         port on 127.0.0.1 (default 8787; 0 picks a free one)
  --accounts     JSON file {"accounts":[{"id","plan","poolMicrocents","packMicrocents","keys","revokedKeys"}]}
                 (without it, one demo account per plan is created and its key printed)
  --jobs         seeded jobs (default 2000)
  --seed         seed of the job generator (default 1)
  --faults       enable fault injection (X-Fault: 500 | drop | delay=<ms>; POST /admin/faults)
  --live         new jobs keep arriving, shown by index refreshes every 5 to 15 minutes
                 (a few straggle to a later refresh, a few are removed after being shown)
  --out-of-order with --live: each job is shown 1 to 16 minutes after it is posted, independently
                 of the others, as an index fed by scrapers out of step would
  --live-fast    live mode for end-to-end tests and npm run dev: a new job every 10 s,
                 visible 20 s after it is posted, in the order posted
  --admin-token  token for /admin/* (default random, printed)

Live shapes (each off by default; the LiveOptions field in brackets):
  --postings-per-hour <n>     new postings an hour (default 60) [postingsPerHour]
  --poisson                   random gaps between postings instead of even ones [arrivals: 'poisson']
  --approximate-totals        total of 1,000 or more rounded down to a thousand, at most 10,000 [approximateTotals]
  --unstable-tie-order        jobs sharing a createdAt come back in a different order each request [unstableTieOrder]
  --burst <at>,<count>,<ms>   a bulk import: <count> postings within <ms> from <at> (epoch ms or ISO 8601),
                              shown 1 to 16 minutes after each createdAt; repeat for more [bursts]
  --repost-share <0..1>       share of postings posted again under the same uid 20 to 60 minutes later [repostShare]
  --round-created-at-ms <ms>  createdAt rounded down to this many ms (1000: seconds, 60000: minutes) [roundCreatedAtMs]
  --skew-ms <ms>              the index's clock runs this far behind the server's (negative: ahead;
                              write --skew-ms=-60000) [skewMs]`;

/**
 * A short, fixed lag: a polling trigger sees each arrival on its next poll. A job shown after a
 * newer one is a late job, which the trigger's sweep delivers within minutes; that path is
 * covered by the trigger tests, and an end-to-end run of a few minutes could not wait for it.
 */
const LIVE_FAST = { postingsPerHour: 360, minLagMs: 20_000, maxLagMs: 20_000 };

/** A command line the server cannot start from: printed with the usage, exit code 2. */
export class UsageError extends Error {}

function fail(message: string): never {
	throw new UsageError(message);
}

function integerOption(name: string, value: string | undefined, fallback: number): number {
	if (value === undefined) return fallback;
	const parsed = Number(value);
	if (!Number.isSafeInteger(parsed) || parsed < 0) fail(`--${name} must be a non-negative integer, got "${value}"`);
	return parsed;
}

function numberOption(name: string, value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const parsed = Number(value);
	if (value.trim() === '' || !Number.isFinite(parsed)) fail(`--${name} must be a number, got "${value}"`);
	return parsed;
}

/** `<at>,<count>,<spreadMs>`, `at` in epoch ms or ISO 8601; the ranges are checked with the other live options. */
function burstOption(value: string): Burst {
	const parts = value.split(',');
	if (parts.length !== 3) fail(`--burst takes <at>,<count>,<spreadMs>, got "${value}"`);
	const [at, count, spreadMs] = parts.map((part) => part.trim());
	const number = (text: string, what: string) => numberOption(`burst ${what}`, text)!;
	return { at: /^\d+$/.test(at) ? Number(at) : at, count: number(count, 'count'), spreadMs: number(spreadMs, 'spreadMs') };
}

type Flags = Record<string, string | boolean | string[] | undefined>;

const SHAPE_FLAGS = ['postings-per-hour', 'poisson', 'approximate-totals', 'unstable-tie-order', 'burst', 'repost-share', 'round-created-at-ms', 'skew-ms'];

/** The live options the flags ask for, or undefined without --live or --live-fast. */
function liveOptions(values: Flags): LiveOptions | undefined {
	const base: LiveOptions | undefined = values['live-fast'] ? LIVE_FAST : values.live ? { model: values['out-of-order'] ? 'out-of-order' : 'batch' } : undefined;
	const shapeFlag = SHAPE_FLAGS.find((name) => values[name] !== undefined);
	if (!base) {
		if (shapeFlag) fail(`--${shapeFlag} shapes live mode: add --live (or --live-fast)`);
		return undefined;
	}
	const shapes: LiveOptions = {
		postingsPerHour: numberOption('postings-per-hour', values['postings-per-hour'] as string | undefined),
		arrivals: values.poisson ? 'poisson' : undefined,
		approximateTotals: values['approximate-totals'] ? true : undefined,
		unstableTieOrder: values['unstable-tie-order'] ? true : undefined,
		bursts: (values.burst as string[] | undefined)?.map(burstOption),
		repostShare: numberOption('repost-share', values['repost-share'] as string | undefined),
		roundCreatedAtMs: numberOption('round-created-at-ms', values['round-created-at-ms'] as string | undefined),
		skewMs: numberOption('skew-ms', values['skew-ms'] as string | undefined),
	};
	const given = Object.fromEntries(Object.entries(shapes).filter(([, value]) => value !== undefined));
	return { ...base, ...given };
}

function readAccounts(file: string): AccountSeed[] {
	let parsed: unknown;
	try {
		parsed = JSON.parse(readFileSync(file, 'utf8'));
	} catch (error) {
		fail(`cannot read accounts file ${file}: ${(error as Error).message}`);
	}
	const accounts = (parsed as { accounts?: unknown })?.accounts;
	if (!Array.isArray(accounts)) fail(`${file}: expected {"accounts": [...]}`);
	accounts.forEach((a: Partial<AccountSeed>, i) => {
		if (typeof a?.id !== 'string' || !PLAN_NAMES.includes(a.plan as Plan)) {
			fail(`${file}: accounts[${i}] needs an "id" string and a "plan" of ${PLAN_NAMES.join(', ')}`);
		}
	});
	return accounts as AccountSeed[];
}

export type CommandLine = { help: true } | { help: false; options: StartServerOptions & { port: number } };

/** The command line as server options; a bad flag or value throws a UsageError naming it. Reads --accounts' file. */
export function parseCommandLine(args: string[]): CommandLine {
	let values;
	try {
		({ values } = parseArgs({
			args,
			options: {
				port: { type: 'string' },
				accounts: { type: 'string' },
				jobs: { type: 'string' },
				seed: { type: 'string' },
				faults: { type: 'boolean' },
				live: { type: 'boolean' },
				'live-fast': { type: 'boolean' },
				'out-of-order': { type: 'boolean' },
				'postings-per-hour': { type: 'string' },
				poisson: { type: 'boolean' },
				'approximate-totals': { type: 'boolean' },
				'unstable-tie-order': { type: 'boolean' },
				burst: { type: 'string', multiple: true },
				'repost-share': { type: 'string' },
				'round-created-at-ms': { type: 'string' },
				'skew-ms': { type: 'string' },
				'admin-token': { type: 'string' },
				help: { type: 'boolean' },
			},
		}));
	} catch (error) {
		fail((error as Error).message);
	}
	if (values.help) return { help: true };
	return {
		help: false,
		options: {
			port: integerOption('port', values.port, 8787),
			accounts: values.accounts ? readAccounts(values.accounts) : undefined,
			jobs: integerOption('jobs', values.jobs, 2000),
			seed: integerOption('seed', values.seed, 1),
			faults: values.faults === true,
			live: liveOptions(values),
			adminToken: values['admin-token'],
		},
	};
}

async function main(): Promise<void> {
	let server;
	let commandLine: CommandLine;
	try {
		commandLine = parseCommandLine(process.argv.slice(2));
		if (commandLine.help) {
			console.log(USAGE);
			return;
		}
		// Live options are checked as the server starts: a bad one is a usage mistake too.
		server = await startServer(commandLine.options).catch((error: Error) => fail(error.message));
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		console.error(`${error.message}\n\n${USAGE}`);
		process.exit(2);
	}
	// Scripts wait for exactly this first line before they talk to the server.
	console.log(`listening on ${server.url}`);
	console.log(`mcp: ${server.mcpUrl}`);
	for (const [plan, key] of Object.entries(server.admin.demoKeys)) console.log(`demo key (${plan}): ${key}`);
	if (!commandLine.options.adminToken) console.log(`admin token: ${server.admin.token}`);
	const stop = () => {
		server.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

// Imported (by its tests) it only parses; run, it serves.
if (require.main === module) void main();
