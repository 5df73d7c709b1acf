import type { IDataObject } from 'n8n-workflow';

import { LOCK_GRACE_MS } from './tunables';

/** The static-data key of the running poll's lock; the trigger's state lives beside it. */
export const LOCK_KEY = 'running';

interface StoredLock {
	id: string;
	until: string;
}

export interface PollLock {
	id: string;
	untilMs: number;
}

/**
 * n8n starts a poll on every tick of Poll Times without waiting for the one before (n8n 2.8's
 * ScheduledTaskManager), and every poll of a workflow shares one static data object. A poll that
 * outlasts its interval (a 429 wait, a slow host) would be joined by the next, which starts from
 * the same state and sends the same jobs again. So a poll takes the lock first, and a poll that
 * finds it taken changes nothing and sends nothing. Taking it is synchronous, so two polls of one
 * process cannot both get it. A lock left by a poll that never finished (the process died)
 * expires by itself, soon after the longest a poll may run.
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
