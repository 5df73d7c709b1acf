import { MICROCENTS_PER_USD, PRICE_MICROCENTS } from '../nodes/JobSearch/pricing';
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

// service-facts A2. Enterprise's pool is "custom": $500 is our stand-in.
export const PLANS: Readonly<Record<Plan, PlanLimits>> = {
	free: { poolMicrocents: 5 * MICROCENTS_PER_USD, rateLimit: { requests: 10, windowMs: 60_000 }, maxKeys: 1, premiumAddons: false },
	pro: { poolMicrocents: 29 * MICROCENTS_PER_USD, rateLimit: { requests: 60, windowMs: 60_000 }, maxKeys: 3, premiumAddons: true },
	enterprise: { poolMicrocents: 500 * MICROCENTS_PER_USD, rateLimit: { requests: 600, windowMs: 60_000 }, maxKeys: Infinity, premiumAddons: true },
};

export const PLAN_NAMES = Object.keys(PLANS) as Plan[];

/** Microcents per billed unit (A2): one price list, shared with the node's credit cap. */
export const PRICES = PRICE_MICROCENTS;

// Upstream's pricing page is not known; the 402 body needs some URL to send people to.
export const UPGRADE_URL = 'https://getmany.com.ua/pricing';
