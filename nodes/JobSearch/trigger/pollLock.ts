import type { IDataObject } from 'n8n-workflow';

import { LOCK_GRACE_MS } from './tunables';

/** The static-data key of the running poll's lock; the trigger's state lives beside it. */
export const LOCK_KEY = 'running';

interface StoredLock {
	id: string;
	until: string;
}

type PollLock = { id: string; untilMs: number };

/**
 * n8n 2.8 starts a poll at every tick without waiting for the one before, on the same static data: the next would send the
 * same jobs again. Taken synchronously (two polls of one process cannot both get it); a dead poll's lock expires by itself.
 */
export function takeLock(staticData: IDataObject, nowMs: number, pollTimeMs: number): PollLock | { heldSinceMs: number } {
	const held = staticData[LOCK_KEY] as Partial<StoredLock> | undefined;
	const heldUntilMs = typeof held?.until === 'string' ? Date.parse(held.until) : Number.NaN;
	if (typeof held?.id === 'string' && heldUntilMs > nowMs) return { heldSinceMs: heldUntilMs - pollTimeMs - LOCK_GRACE_MS };
	const lock = { id: `${nowMs.toString(36)}-${Math.random().toString(36).slice(2, 10)}`, untilMs: nowMs + pollTimeMs + LOCK_GRACE_MS };
	staticData[LOCK_KEY] = { id: lock.id, until: new Date(lock.untilMs).toISOString() } satisfies StoredLock;
	return lock;
}

/** Gives the lock back, unless it expired meanwhile and another poll holds it now. */
export function releaseLock(staticData: IDataObject, lock: PollLock): void {
	const held = staticData[LOCK_KEY] as Partial<StoredLock> | undefined;
	if (held?.id === lock.id) delete staticData[LOCK_KEY];
}
