import { backoffMs, retryAfterMs } from '../../nodes/JobSearch/transport/retry';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, FALLBACK_RETRY_AFTER_MS } from '../../nodes/JobSearch/transport/tunables';

describe('backoff', () => {
	it('doubles per retry, keeps a random share for jitter and never passes the cap', () => {
		expect(backoffMs(0, () => 0)).toBe(BACKOFF_BASE_MS / 2);
		expect(backoffMs(0, () => 1)).toBe(BACKOFF_BASE_MS);
		expect(backoffMs(3, () => 1)).toBe(BACKOFF_BASE_MS * 8);
		expect(backoffMs(40, () => 1)).toBe(BACKOFF_CAP_MS);
	});
});

describe('how long a 429 asks to wait', () => {
	it('prefers the exact retryAfterMs of the body over the rounded Retry-After header', () => {
		expect(retryAfterMs({ 'retry-after': '1' }, { retryAfterMs: 180 })).toBe(180);
	});

	it('takes a retryAfterMs of 0 in the body as it is: the window is free now, whatever the rounded header says', () => {
		expect(retryAfterMs({ 'retry-after': '1' }, { retryAfterMs: 0 })).toBe(0);
	});

	it('reads Retry-After as seconds or as an HTTP date', () => {
		expect(retryAfterMs({ 'Retry-After': '2' }, {})).toBe(2000);
		const now = Date.parse('2026-11-20T10:00:00Z');
		expect(retryAfterMs({ 'retry-after': 'Fri, 20 Nov 2026 10:00:03 GMT' }, undefined, now)).toBe(3000);
	});

	it('falls back to a tenth of the window when the service says nothing', () => {
		expect(retryAfterMs({}, 'Too Many Requests')).toBe(FALLBACK_RETRY_AFTER_MS);
	});
});
