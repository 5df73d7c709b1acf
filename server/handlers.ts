import { toolDefinitions, TOOL_NAMES, type ToolName } from '../nodes/JobSearch/filters';
import { balanceOf, charge, type Account, type AccountBook, type KeyRecord } from './accounts';
import type { Clock } from './clock';
import { clientActivityOf, clientHistoryOf } from './details';
import type { FaultQueue } from './faults';
import { invalidKey, notFound, serviceError, ServiceError, validationError, type ErrorBody } from './errors';
import type { Plan } from './model';
import { PLANS, PRICES, UPGRADE_URL } from './plans';
import type { SlidingWindowLimiter } from './rateLimit';
import { compileQuery, search } from './search';
import type { JobStore } from './store';
import { inputProblem } from './validation';

/** What both transports share: one of these per server. */
export interface ServiceState {
	clock: Clock;
	accounts: AccountBook;
	limiter: SlidingWindowLimiter;
	store: JobStore;
	rateLimits: Record<Plan, { requests: number; windowMs: number }>;
	/** Armed faults, when fault injection is on: the handler answers their 429s. */
	faults?: FaultQueue;
	/** A search engine's page size in front of the index: at most this many rows a search, whatever `limit` asks (tests of hosts that deviate). */
	pageCap?: number;
}

export interface CallContext {
	key: KeyRecord;
	transport: 'rest' | 'mcp';
}

export interface Envelope {
	data: unknown;
	usage: { consumedMicrocents: number; remainingMicrocents: number };
}

export type ToolOutcome =
	| { status: 200; body: Envelope; headers: Record<string, string> }
	| { status: number; body: ErrorBody; headers: Record<string, string> };

const PREMIUM = new Set(toolDefinitions().filter((t) => t.premium).map((t) => t.name));

export function isToolName(name: string): name is ToolName {
	return (TOOL_NAMES as readonly string[]).includes(name);
}

interface Served {
	data: unknown;
	/** Price of the call as asked, in microcents. */
	cost: number;
	/** What a 402 reports as needed: a search that would return nothing still needs one row. */
	needed: number;
}

function serve(state: ServiceState, tool: ToolName, input: Record<string, unknown>): Served {
	if (tool === 'search_jobs') {
		// The service computes searchPeriod on its own clock, the index's.
		const query = compileQuery(input, state.store.now());
		if (state.pageCap !== undefined) query.limit = Math.min(query.limit, state.pageCap);
		const result = search(state.store, query, state.store.answerShape());
		const cost = result.jobs.length * PRICES.search_jobs;
		return { data: result, cost, needed: Math.max(cost, PRICES.search_jobs) };
	}
	const job = state.store.get(input.jobUid as string);
	if (!job) throw notFound(`No job with uid ${String(input.jobUid)}`);
	const price = PRICES[tool];
	if (tool === 'get_job') {
		const data = input.withClientHistory === true ? { ...job, clientHistory: clientHistoryOf(job).clientHistory } : job;
		return { data, cost: price, needed: price };
	}
	const data = tool === 'get_client_activity' ? clientActivityOf(job, state.clock.now()) : clientHistoryOf(job);
	return { data, cost: price, needed: price };
}

function insufficientCredits(account: Account, needed: number): ServiceError {
	return serviceError(402, 'insufficient_credits', 'Insufficient credits', {
		message: 'Your monthly pool and prepaid packs are both empty. There is no overage: top up a credit pack or wait for the pool to renew.',
		neededMicrocents: needed,
		availableMicrocents: balanceOf(account),
		upgradeUrl: UPGRADE_URL,
		hint: account.plan === 'free' ? 'Upgrade to Pro for a larger monthly pool, or buy a credit pack.' : 'Buy a credit pack to continue before the pool renews.',
	});
}

function run(state: ServiceState, account: Account, ctx: CallContext, tool: string, input: unknown): ToolOutcome {
	// The key was checked when the headers arrived; it may have been revoked while the body was.
	if (ctx.key.revoked) throw invalidKey();
	if (!isToolName(tool)) throw notFound(`Unknown tool "${tool}". Tools: ${TOOL_NAMES.join(', ')}`);
	const rateLimited = (retryAfterMs: number) =>
		serviceError(
			429,
			'rate_limited',
			`Rate limit of ${state.rateLimits[account.plan].requests} requests per minute for this key exceeded; retry in ${retryAfterMs} ms`,
			{ retryAfterMs },
			{ 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) },
		);
	// Before the limiter, and so not counted in the window: the requests that used it up are someone else's.
	const forced = state.faults?.take('handler', tool, ctx.key.id);
	if (forced) throw rateLimited(forced.retryAfterMs);
	const decision = state.limiter.take(ctx.key.id, state.rateLimits[account.plan]);
	if (!decision.allowed) throw rateLimited(decision.retryAfterMs);
	const problem = inputProblem(tool, input);
	if (problem) throw validationError(problem);
	const body = input as Record<string, unknown>;
	const addonNeeded = PREMIUM.has(tool) || (tool === 'get_job' && body.withClientHistory === true);
	if (addonNeeded && !PLANS[account.plan].premiumAddons) {
		const what = tool === 'get_job' ? 'withClientHistory' : tool;
		throw serviceError(403, 'addon_forbidden', `${what} is a premium addon that the ${account.plan} plan does not include; upgrade to Pro.`);
	}
	const served = serve(state, tool, body);
	// From here to the return nothing awaits: the balance check and the charge are one step.
	if (balanceOf(account) === 0) throw insufficientCredits(account, served.needed);
	const consumed = charge(account, served.cost);
	return {
		status: 200,
		body: { data: served.data, usage: { consumedMicrocents: consumed, remainingMicrocents: balanceOf(account) } },
		headers: {},
	};
}

/**
 * The one entry for a tool call, from REST or MCP: rate limit, validation, plan, credits,
 * the work itself and the call log, in that order. Synchronous, so a call is atomic.
 */
export function handleTool(state: ServiceState, ctx: CallContext, tool: string, input: unknown): ToolOutcome {
	const account = state.accounts.get(ctx.key.accountId)!;
	let outcome: ToolOutcome;
	try {
		outcome = run(state, account, ctx, tool, input);
	} catch (error) {
		if (!(error instanceof ServiceError)) throw error;
		outcome = { status: error.status, body: error.body, headers: error.headers };
	}
	account.callLog.push({
		at: state.clock.now(),
		tool,
		transport: ctx.transport,
		status: outcome.status,
		consumedMicrocents: outcome.status === 200 ? (outcome.body as Envelope).usage.consumedMicrocents : 0,
		keyId: ctx.key.id,
	});
	return outcome;
}
