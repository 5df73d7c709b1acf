import type { Watch } from './state';
import { INDEX_CLOCK_DOUBT_MS } from './tunables';

type Offsets = Watch['offsets'];

/** The index's clock: at least n8n's plus the largest lead of a newest job seen lately (never believed beyond INDEX_CLOCK_DOUBT_MS). */
export function indexClockMs(offsets: Offsets, nowMs: number): number {
	if (offsets.length === 0) return nowMs - INDEX_CLOCK_DOUBT_MS;
	return nowMs + Math.min(INDEX_CLOCK_DOUBT_MS, Math.max(...offsets.map((o) => o.offsetMs)));
}

/** The samples with the newest `createdAt` read at `nowMs`: only those that may still be the largest are kept. */
export function withSample(offsets: Offsets, newestMs: number, nowMs: number): Offsets {
	if (!Number.isFinite(newestMs)) return offsets;
	const offsetMs = newestMs - nowMs;
	return [...offsets.filter((o) => o.offsetMs > offsetMs), { atMs: nowMs, offsetMs }];
}
