import {
	BACKOFF_BASE_MS,
	BACKOFF_CAP_MS,
	BACKOFF_JITTER_RATIO,
	FALLBACK_RETRY_AFTER_MS,
} from './tunables';

/** Exponential backoff with jitter for the retry after `retriesSoFar` failed retries. */
export function backoffMs(retriesSoFar: number, random: () => number = Math.random): number {
	const exponential = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retriesSoFar);
	const jitter = exponential * BACKOFF_JITTER_RATIO * random();
	return Math.round(exponential - exponential * BACKOFF_JITTER_RATIO + jitter);
}

/** A response header by its lower-case name, whatever case the host sent it in; the first of a repeated one. */
export function headerValue(headers: Record<string, unknown>, name: string): string | undefined {
	const key = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === name);
	const value = key === undefined ? undefined : headers[key];
	return value === undefined ? undefined : String(Array.isArray(value) ? value[0] : value);
}

/**
 * How long a 429 asks to wait. The body's `retryAfterMs` is exact; the `Retry-After` header is
 * rounded up to whole seconds (or is an HTTP date), so it is only the fallback.
 */
export function retryAfterMs(headers: Record<string, unknown>, body: unknown, now: number = Date.now()): number {
	const fromBody = (body as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
	if (typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0) return fromBody;
	const value = headerValue(headers, 'retry-after');
	if (value !== undefined) {
		const secondsValue = Number(value);
		if (Number.isFinite(secondsValue) && secondsValue >= 0) return secondsValue * 1000;
		const date = Date.parse(value);
		if (!Number.isNaN(date)) return Math.max(0, date - now);
	}
	return FALLBACK_RETRY_AFTER_MS;
}
