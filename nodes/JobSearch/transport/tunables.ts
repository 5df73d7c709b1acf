/**
 * Every number the transport tunes, in one place, each with the reason for its value.
 * Node options (Max Retries, Max Retry Wait) override the defaults per execution.
 */

import { RATE_LIMIT_WINDOW_MS } from '../service/plans';

/** A 10,000-row search is a few MB; a minute covers it on a slow link without hanging a worker. */
export const REQUEST_TIMEOUT_SECONDS = 60;
export const REQUEST_TIMEOUT_MS = REQUEST_TIMEOUT_SECONDS * 1000;

/** Three retries ride out a short rate-limit burst or a brief outage without hiding a real one. */
export const DEFAULT_MAX_RETRIES = 3;

/** One full rate-limit window (a minute) is the longest wait worth sitting through. */
export const DEFAULT_MAX_RETRY_WAIT_SECONDS = RATE_LIMIT_WINDOW_MS / 1000;
export const DEFAULT_MAX_RETRY_WAIT_MS = DEFAULT_MAX_RETRY_WAIT_SECONDS * 1000;

/** The service rejects a retry that comes even a little early (docs/service.md#errors), so wait this much longer. */
export const RETRY_AFTER_CUSHION_MS = 25;

/** Used when a 429 carries neither Retry-After nor retryAfterMs: a tenth of the rate-limit window. */
export const FALLBACK_RETRY_AFTER_MS = RATE_LIMIT_WINDOW_MS / 10;

/** First backoff after a 500 or a dropped connection; it doubles on each further attempt. */
export const BACKOFF_BASE_MS = 200;

/** No single backoff step grows past this, whatever the attempt number. */
export const BACKOFF_CAP_MS = 10_000;

/** Up to this share of each backoff is random, so parallel workers do not retry in lockstep. */
export const BACKOFF_JITTER_RATIO = 0.5;

/**
 * Dropped connections, retried with backoff. Most of these (refused, DNS, unreachable) happen
 * before the request reaches the service. A reset or broken pipe can also come after the service
 * did, and billed, the work, so a retry may charge twice; they are retried anyway because a
 * reset is far more often a stale keep-alive socket or a proxy cutting in before the work starts.
 * A timeout is the opposite case (the service is most likely still working), so it is not retried.
 */
export const RETRYABLE_NETWORK_CODES: readonly string[] = [
	'ECONNRESET',
	'ECONNREFUSED',
	'EPIPE',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
];

/**
 * HTTP statuses retried with backoff (besides 429, which waits as asked): an internal error and
 * the gateway answers of a proxy or load balancer in front of a service that is restarting or
 * overloaded. Every other status (bad input, key, plan, credit, size, 501 and the rest) is
 * answered the same however often it is asked, so it fails at once.
 */
export const RETRYABLE_STATUSES: readonly number[] = [500, 502, 503, 504];

/** The most retries a node option may ask for: past this a failing service only burns time and rate limit. */
export const MAX_RETRIES_CEILING = 10;
