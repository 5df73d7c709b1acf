import type { Clock } from './clock';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * A sliding window per key (docs/service.md#rate-limit): a request is allowed when fewer than `requests` were
 * allowed in the last `windowMs`. Refused requests are not recorded, so retrying at
 * `retryAfterMs` always finds the oldest request expired.
 */
export class SlidingWindowLimiter {
	private readonly hits = new Map<string, number[]>();

	constructor(private readonly clock: Clock) {}

	take(keyId: string, limit: { requests: number; windowMs: number }): RateDecision {
		const now = this.clock.now();
		const times = this.hits.get(keyId) ?? [];
		let expired = 0;
		while (expired < times.length && times[expired] <= now - limit.windowMs) expired++;
		if (expired > 0) times.splice(0, expired);
		if (times.length >= limit.requests) {
			// The request that frees a slot is the one `requests` back from the newest.
			const freeingAt = times[times.length - limit.requests] + limit.windowMs;
			return { allowed: false, retryAfterMs: Math.max(1, freeingAt - now) };
		}
		times.push(now);
		this.hits.set(keyId, times);
		return { allowed: true };
	}
}
