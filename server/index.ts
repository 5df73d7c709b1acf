import { randomBytes } from 'crypto';
import type { AddressInfo } from 'net';
import { AccountBook, balanceOf, generateKey, type AccountSeed, type CallLogEntry } from './accounts';
import { buildApp, type AuthenticatedRequest } from './app';
import { systemClock, type Clock } from './clock';
import { FaultQueue, injectFault, type Fault } from './faults';
import type { ServiceState } from './handlers';
import type { Job, Plan } from './model';
import { PLAN_NAMES, PLANS } from './plans';
import { SlidingWindowLimiter } from './rateLimit';
import { JobStore, type LiveOptions, type ScriptedJob } from './store';

export type { AccountSeed, CallLogEntry } from './accounts';
export { createManualClock, type Clock } from './clock';
export type { Job, Plan } from './model';
export type { Fault } from './faults';
export type { ScriptedJob } from './store';
export type { Burst, LiveOptions } from './liveOptions';
export type { AuthenticatedRequest } from './app';

export interface StartServerOptions {
	/** Default 127.0.0.1. */
	host?: string;
	/** Default 0: any free port. */
	port?: number;
	/** Default: one demo account per plan, keys in `admin.demoKeys`. */
	accounts?: AccountSeed[];
	/** Seeded jobs, default 2000. */
	jobs?: number;
	/** Default 1. */
	seed?: number;
	/** Default the system clock. Rate limits, search windows, createdAt and live mode all read it. */
	clock?: Clock;
	/** Fault injection, only when true. */
	faults?: boolean;
	/** How a `delay` fault waits (default: in real time); a test can record the wait instead of taking it. */
	faultSleep?: (ms: number) => Promise<void>;
	/** Default random. */
	adminToken?: string;
	/** Overrides of the plans' limits, e.g. short windows for tests. */
	rateLimits?: Partial<Record<Plan, { requests: number; windowMs: number }>>;
	/** New jobs keep arriving by the clock; the index shows them in batch refreshes (see LiveOptions). */
	live?: LiveOptions;
	/** Default false. */
	logger?: boolean;
	/** At most this many rows a search whatever `limit` asks, as a search engine in front of the service may answer (tests only). */
	pageCap?: number;
	/** Time a client has to send a whole request (default REQUEST_TIMEOUT_MS): then 408 request_timeout. */
	requestTimeoutMs?: number;
	/**
	 * Called when a tool request's key has been accepted, from its headers, before its body is
	 * read: a test can act at that moment (revoke the key mid-body, say) instead of guessing it.
	 */
	onAuthenticated?: (request: AuthenticatedRequest) => void;
}

export interface RunningServer {
	/** REST base URL; tools at `${url}/v1/<tool>`. */
	url: string;
	/** `${url}/mcp`. */
	mcpUrl: string;
	admin: {
		token: string;
		/** Keys of the demo accounts, when accounts were defaulted; empty otherwise. */
		demoKeys: Record<Plan, string>;
		createAccount(a: { id?: string; plan: Plan; poolMicrocents?: number; packMicrocents?: number }): Promise<{ id: string; key: string }>;
		issueKey(accountId: string): Promise<string>;
		revokeKey(key: string): Promise<void>;
		balance(accountId: string): { poolMicrocents: number; packMicrocents: number; totalMicrocents: number };
		setBalance(accountId: string, b: { poolMicrocents?: number; packMicrocents?: number }): void;
		callLog(accountId: string): CallLogEntry[];
		addJobs(jobs: ScriptedJob[]): Job[];
		/** Takes jobs out of the index (closed or made private upstream); returns how many were there. */
		removeJobs(uids: string[]): number;
		visibleJobs(): Job[];
		/**
		 * Arms a fault for the next matching requests (see Fault): e.g. `{ kind: '429', share: 0.3,
		 * key, seed: 7 }` answers about 30% of that key's tool calls 429, as when other workflows
		 * use the key too. Also `POST /admin/faults`.
		 */
		injectFault(f: Fault): void;
		/** Disarms every fault still armed; returns how many were. */
		clearFaults(): number;
	};
	close(): Promise<void>;
}

function demoAccounts(): { seeds: AccountSeed[]; keys: Record<Plan, string> } {
	const keys = Object.fromEntries(PLAN_NAMES.map((plan) => [plan, generateKey()])) as Record<Plan, string>;
	return { seeds: PLAN_NAMES.map((plan) => ({ id: `demo-${plan}`, plan, keys: [keys[plan]] })), keys };
}

async function adminCall<T>(url: string, token: string, path: string, body: unknown): Promise<T> {
	const response = await fetch(`${url}${path}`, {
		method: 'POST',
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
		body: JSON.stringify(body ?? {}),
	});
	const json = (await response.json()) as T & { error?: string };
	if (!response.ok) throw new Error(`${path}: ${response.status} ${json.error ?? ''}`);
	return json;
}

/** The whole service in process, on REST and MCP, listening on loopback. */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
	const clock = options.clock ?? systemClock;
	const accounts = new AccountBook();
	const demo = options.accounts ? undefined : demoAccounts();
	for (const seed of options.accounts ?? demo!.seeds) accounts.createAccount(seed);
	const rateLimits = Object.fromEntries(
		PLAN_NAMES.map((plan) => [plan, options.rateLimits?.[plan] ?? PLANS[plan].rateLimit]),
	) as ServiceState['rateLimits'];
	const faultQueue = new FaultQueue();
	const state: ServiceState = {
		clock,
		accounts,
		limiter: new SlidingWindowLimiter(clock),
		store: new JobStore({ clock, seed: options.seed ?? 1, jobs: options.jobs ?? 2000, live: options.live }),
		rateLimits,
		faults: options.faults === true ? faultQueue : undefined,
		...(options.pageCap !== undefined ? { pageCap: options.pageCap } : {}),
	};
	const adminToken = options.adminToken ?? randomBytes(24).toString('base64url');
	const app = buildApp(state, { faults: options.faults === true, faultQueue, adminToken, logger: options.logger === true, requestTimeoutMs: options.requestTimeoutMs,
		faultSleep: options.faultSleep,
		onAuthenticated: options.onAuthenticated,
	});
	const host = options.host ?? '127.0.0.1';
	await app.listen({ host, port: options.port ?? 0 });
	const { port } = app.server.address() as AddressInfo;
	const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

	const accountOf = (id: string) => {
		const account = accounts.get(id);
		if (!account) throw new Error(`no account ${id}`);
		return account;
	};
	return {
		url,
		mcpUrl: `${url}/mcp`,
		admin: {
			token: adminToken,
			demoKeys: demo?.keys ?? ({} as Record<Plan, string>),
			createAccount: (a) => adminCall(url, adminToken, '/admin/accounts', a),
			issueKey: async (accountId) =>
				(await adminCall<{ key: string }>(url, adminToken, `/admin/accounts/${encodeURIComponent(accountId)}/keys`, {})).key,
			revokeKey: async (key) => {
				await adminCall(url, adminToken, '/admin/keys/revoke', { key });
			},
			balance: (id) => {
				const account = accountOf(id);
				return { poolMicrocents: account.poolMicrocents, packMicrocents: account.packMicrocents, totalMicrocents: balanceOf(account) };
			},
			setBalance: (id, b) => {
				const account = accountOf(id);
				for (const [name, value] of Object.entries(b)) {
					if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) throw new Error(`${name} must be a non-negative integer`);
				}
				account.poolMicrocents = b.poolMicrocents ?? account.poolMicrocents;
				account.packMicrocents = b.packMicrocents ?? account.packMicrocents;
			},
			callLog: (id) => accountOf(id).callLog.map((entry) => ({ ...entry })),
			addJobs: (jobs) => state.store.add(jobs),
			removeJobs: (uids) => state.store.remove(uids),
			visibleJobs: () => state.store.visible().map((entry) => entry.job),
			injectFault: (fault) => injectFault(state, fault),
			clearFaults: () => faultQueue.clear(),
		},
		close: () => app.close(),
	};
}
