import { readFileSync } from 'fs';
import { parseArgs } from 'util';
import type { AccountSeed } from './accounts';
import { startServer } from './index';
import { PLAN_NAMES } from './plans';
import type { Plan } from './model';

const USAGE = `Usage: npm run server -- [--port <p>] [--accounts <file>] [--jobs <n>] [--seed <s>] [--faults] [--live] [--out-of-order] [--admin-token <t>]

  --port         port on 127.0.0.1 (default 8787; 0 picks a free one)
  --accounts     JSON file {"accounts":[{"id","plan","poolMicrocents","packMicrocents","keys","revokedKeys"}]}
                 (without it, one demo account per plan is created and its key printed)
  --jobs         seeded jobs (default 2000)
  --seed         seed of the job generator (default 1)
  --faults       enable fault injection (X-Fault: 500 | drop | delay=<ms>)
  --live         new jobs keep arriving, shown by index refreshes every 5 to 15 minutes
                 (a few straggle to a later refresh, a few are removed after being shown)
  --out-of-order with --live: each job is shown 1 to 16 minutes after it is posted, independently
                 of the others, as an index fed by scrapers out of step would
  --live-fast    live mode for end-to-end tests and npm run dev: a new job every 10 s,
                 visible 20 s after it is posted, in the order posted
  --admin-token  token for /admin/* (default random, printed)`;

/**
 * A short, fixed lag: a polling trigger sees each arrival on its next poll. A job shown after a
 * newer one is a late job, which the trigger's sweep delivers within minutes; that path is
 * covered by the trigger tests, and an end-to-end run of a few minutes could not wait for it.
 */
const LIVE_FAST = { postingsPerHour: 360, minLagMs: 20_000, maxLagMs: 20_000 };

function fail(message: string): never {
	console.error(`${message}\n\n${USAGE}`);
	process.exit(2);
}

function integerOption(name: string, value: string | undefined, fallback: number): number {
	if (value === undefined) return fallback;
	const parsed = Number(value);
	if (!Number.isSafeInteger(parsed) || parsed < 0) fail(`--${name} must be a non-negative integer, got "${value}"`);
	return parsed;
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

async function main(): Promise<void> {
	let values;
	try {
		({ values } = parseArgs({
			options: {
				port: { type: 'string' },
				accounts: { type: 'string' },
				jobs: { type: 'string' },
				seed: { type: 'string' },
				faults: { type: 'boolean' },
				live: { type: 'boolean' },
				'live-fast': { type: 'boolean' },
				'out-of-order': { type: 'boolean' },
				'admin-token': { type: 'string' },
				help: { type: 'boolean' },
			},
		}));
	} catch (error) {
		fail((error as Error).message);
	}
	if (values.help) {
		console.log(USAGE);
		return;
	}
	const server = await startServer({
		port: integerOption('port', values.port, 8787),
		accounts: values.accounts ? readAccounts(values.accounts) : undefined,
		jobs: integerOption('jobs', values.jobs, 2000),
		seed: integerOption('seed', values.seed, 1),
		faults: values.faults === true,
		live: values['live-fast'] ? LIVE_FAST : values.live ? { model: values['out-of-order'] ? 'out-of-order' : 'batch' } : undefined,
		adminToken: values['admin-token'],
	}).catch((error: Error) => fail(error.message));
	// Scripts wait for exactly this first line before they talk to the server.
	console.log(`listening on ${server.url}`);
	console.log(`mcp: ${server.mcpUrl}`);
	for (const [plan, key] of Object.entries(server.admin.demoKeys)) console.log(`demo key (${plan}): ${key}`);
	if (!values['admin-token']) console.log(`admin token: ${server.admin.token}`);
	const stop = () => {
		server.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

void main();
