import type { ToolName } from '../nodes/JobSearch/filters';
import type { Plan } from './model';

/** 1 USD in microcents, the unit of every balance and price. */
export const MICROCENTS_PER_USD = 100_000_000;

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

/** Microcents per billed unit: a returned row for search_jobs, a lookup or result otherwise (A2). */
export const PRICES: Readonly<Record<ToolName, number>> = {
	search_jobs: 579_000,
	get_job: 1_950_000,
	get_client_activity: 540_000,
	get_client_history: 540_000,
};

// Upstream's pricing page is not known; the 402 body needs some URL to send people to.
export const UPGRADE_URL = 'https://getmany.com.ua/pricing';
