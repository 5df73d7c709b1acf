/**
 * Facts about the service itself (docs/service.md#plans-and-prices, #limits): the plans and the size cap. Node
 * texts and the reference server both read them from here, so a change is made once.
 * The server may import this file; nothing under nodes/ imports the server.
 */

export type PlanName = 'free' | 'pro' | 'enterprise';

export interface PlanFacts {
	/** As the pricing page names it. */
	title: string;
	requestsPerMinute: number;
	/** Whether the plan includes the premium addon (client activity and history). */
	includesPremiumAddon: boolean;
}

export const SERVICE_PLANS: Readonly<Record<PlanName, PlanFacts>> = {
	free: { title: 'Free', requestsPerMinute: 10, includesPremiumAddon: false },
	pro: { title: 'Pro', requestsPerMinute: 60, includesPremiumAddon: true },
	enterprise: { title: 'Enterprise', requestsPerMinute: 600, includesPremiumAddon: true },
};

/** Rate limits count requests per key in a sliding window of one minute. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** Requests reach the service a little after they are sent, some sooner than others: pacing keeps its window this much longer. */
export const RATE_WINDOW_MARGIN_MS = 1_000;

/** The largest request body the service accepts. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** MAX_BODY_BYTES as people read it: "10 MiB". */
export const MAX_BODY_LABEL = `${MAX_BODY_BYTES / (1024 * 1024)} MiB`;

/** "Pro and Enterprise" (or "Pro or Enterprise"): the plans that include the premium addon. */
export function plansWithPremiumAddon(conjunction: 'and' | 'or' = 'and'): string {
	const titles = Object.values(SERVICE_PLANS)
		.filter((plan) => plan.includesPremiumAddon)
		.map((plan) => plan.title);
	return titles.length > 1 ? `${titles.slice(0, -1).join(', ')} ${conjunction} ${titles[titles.length - 1]}` : titles.join('');
}

/** The pause between requests that keeps one key of `plan` under its rate limit. */
export function minIntervalMsFor(plan: PlanName): number {
	return Math.ceil((RATE_LIMIT_WINDOW_MS + RATE_WINDOW_MARGIN_MS) / SERVICE_PLANS[plan].requestsPerMinute);
}
