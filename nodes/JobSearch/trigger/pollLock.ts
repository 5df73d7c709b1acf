import type { IDataObject } from 'n8n-workflow';

import { GUARD_GRACE_MS } from './tunables';

/** The static-data key of the running poll's guard; the trigger's state lives beside it. */
export const GUARD_KEY = 'running';

interface StoredGuard {
	id: string;
	until: string;
}

export interface PollGuard {
	id: string;
	untilMs: number;
}

/**
 * n8n starts a poll on every tick of Poll Times without waiting for the one before (n8n 2.8's
 * ScheduledTaskManager), and every poll of a workflow shares one static data object. A poll that
 * outlasts its interval (a 429 wait, a slow host) would be joined by the next, which starts from
 * the same state and sends the same jobs again. So a poll takes the guard first, and a poll that
 * finds it taken changes nothing and sends nothing. Taking it is synchronous, so two polls of one
 * process cannot both get it. A guard left by a poll that never finished (the process died)
 * expires by itself, soon after the longest a poll may run.
 */
export function takeGuard(staticData: IDataObject, nowMs: number, budgetMs: number): PollGuard | { heldSinceMs: number } {
	const held = staticData[GUARD_KEY] as Partial<StoredGuard> | undefined;
	const heldUntilMs = typeof held?.until === 'string' ? Date.parse(held.until) : Number.NaN;
	if (typeof held?.id === 'string' && heldUntilMs > nowMs) return { heldSinceMs: heldUntilMs - budgetMs - GUARD_GRACE_MS };
	const guard = { id: `${nowMs.toString(36)}-${Math.random().toString(36).slice(2, 10)}`, untilMs: nowMs + budgetMs + GUARD_GRACE_MS };
	staticData[GUARD_KEY] = { id: guard.id, until: new Date(guard.untilMs).toISOString() } satisfies StoredGuard;
	return guard;
}

/** Gives the guard back, unless it expired meanwhile and another poll holds it now. */
export function releaseGuard(staticData: IDataObject, guard: PollGuard): void {
	const held = staticData[GUARD_KEY] as Partial<StoredGuard> | undefined;
	if (held?.id === guard.id) delete staticData[GUARD_KEY];
}
