import { MICROCENTS_PER_USD, PRICE_MICROCENTS } from '../nodes/JobSearch/service/pricing';
import { RATE_LIMIT_WINDOW_MS, SERVICE_PLANS } from '../nodes/JobSearch/service/plans';
import type { Plan } from './model';

export { MICROCENTS_PER_USD };

export interface PlanLimits {
	/** Monthly credit pool a new account starts with. */
	poolMicrocents: number;
	rateLimit: { requests: number; windowMs: number };
	/** Active keys an account may hold; Infinity for unlimited. */
	maxKeys: number;
	premiumAddons: boolean;
}

/** What only the server needs (pool, keys); rate limits and the addon are the node's SERVICE_PLANS. */
function plan(name: Plan, poolMicrocents: number, maxKeys: number): PlanLimits {
	const facts = SERVICE_PLANS[name];
	return {
		poolMicrocents,
		rateLimit: { requests: facts.requestsPerMinute, windowMs: RATE_LIMIT_WINDOW_MS },
		maxKeys,
		premiumAddons: facts.includesPremiumAddon,
	};
}

// docs/service.md#plans-and-prices. Enterprise's pool is "custom": $500 is our stand-in.
export const PLANS: Readonly<Record<Plan, PlanLimits>> = {
	free: plan('free', 5 * MICROCENTS_PER_USD, 1),
	pro: plan('pro', 29 * MICROCENTS_PER_USD, 3),
	enterprise: plan('enterprise', 500 * MICROCENTS_PER_USD, Infinity),
};

export const PLAN_NAMES = Object.keys(PLANS) as Plan[];

/** Microcents per billed unit (docs/service.md#plans-and-prices): one price list, shared with the node's credit cap. */
export const PRICES = PRICE_MICROCENTS;

// Upstream's pricing page is not known; the 402 body needs some URL to send people to.
export const UPGRADE_URL = 'https://getmany.com.ua/pricing';
