import type { IDataObject } from 'n8n-workflow';

import { LOCK_GRACE_MS } from './tunables';

/** The static-data key of the running poll's lock; the trigger's state lives beside it. */
export const LOCK_KEY = 'running';

interface StoredLock {
	id: string;
	until: string;
}

/**
 * n8n 2.8 starts a poll at every tick without waiting for the one before, on the same static data: the next would send the
 * same jobs again. Taken synchronously (two polls of one process cannot both get it); a dead poll's lock expires by itself.
 */
export function takeLock(staticData: IDataObject, nowMs: number, pollTimeMs: number): { id: string } | { heldSinceMs: number } {
	const held = staticData[LOCK_KEY] as Partial<StoredLock> | undefined;
	const heldUntilMs = typeof held?.until === 'string' ? Date.parse(held.until) : Number.NaN;
	if (typeof held?.id === 'string' && heldUntilMs > nowMs) return { heldSinceMs: heldUntilMs - pollTimeMs - LOCK_GRACE_MS };
	const id = `${nowMs.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
	staticData[LOCK_KEY] = { id, until: new Date(nowMs + pollTimeMs + LOCK_GRACE_MS).toISOString() } satisfies StoredLock;
	return { id };
}

/** Gives the lock back, unless it expired meanwhile and another poll holds it now. */
export function releaseLock(staticData: IDataObject, lock: { id: string }): void {
	if ((staticData[LOCK_KEY] as Partial<StoredLock> | undefined)?.id === lock.id) delete staticData[LOCK_KEY];
}
