import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { freshLedger } from '../../nodes/JobSearch/trigger/requests';
import { isDropped, readState, type SearchState, type TriggerState } from '../../nodes/JobSearch/trigger/state';
import type { Poller } from '../harness/poll';
import type { Harnessed, TimeControl } from './scriptedDay';

export const uidsOf = (items: { json: { uid?: unknown } }[]) => items.map((item) => String(item.json.uid));

/** Moves the faked clock to `ms`, or leaves it where a poll's waits moved it if that is later: it never goes back. */
export function moveTo(time: TimeControl, ms: number): void {
	time.set(Math.max(ms, Date.now()));
}

/** The trigger's static data as n8n keeps it: its state (`state.ts`) and, beside it, the running poll's lock. */
export const staticOf = (poller: Poller) => poller.staticData() as IDataObject & { version?: number; running?: { id: string; until: string } };

/** The trigger's state as its next poll reads it (a state of no search before the first poll). */
export function stateOf(poller: Poller): TriggerState {
	const state = readState(staticOf(poller));
	if (isDropped(state)) throw new Error('the stored state cannot be read');
	return state ?? { searches: {}, requests: freshLedger(0, { requestsPerMinute: 1 }), polls: 0 };
}

/** The state of the trigger's only search (Watch: One Search), kept under its filters' key. */
export function searchOf(poller: Poller): SearchState | undefined {
	const searches = Object.values(stateOf(poller).searches);
	if (searches.length > 1) throw new Error(`the trigger holds ${searches.length} searches, not one`);
	return searches[0];
}

/** What the trigger knows of the index (every search's stored `watch`), as text to compare before and after a poll. */
export const watchOf = (poller: Poller) => JSON.stringify(Object.values(stateOf(poller).searches).map(({ watch }) => watch && { ...watch, seen: [...watch.seen], gone: [...watch.gone], learned: [...watch.learned] }));

/**
 * Another workflow on the same key: requests for a window in the future (no row, no cost) until
 * the service answers 429 or `most` went through. Returns how many went through.
 */
export async function fillRateWindow(h: Harnessed, most = Infinity): Promise<number> {
	let sent = 0;
	while (sent < most) {
		const answer = await axios.post(
			`${h.server.url}/v1/search_jobs`,
			{ fromDate: '2099-01-01T00:00:00.000Z', limit: 1 },
			{ headers: { authorization: `Bearer ${h.key}` }, validateStatus: () => true },
		);
		if (answer.status === 429) break;
		sent++;
	}
	return sent;
}

/**
 * `count` jobs created `spacingMs` apart, the newest 583 ms before `newestMs`, newest first (the order the trigger
 * sends them in). Off the whole second, as the deployment's createdAt are: where every known one is a whole second,
 * final looks read whole, and the tests would not reach the open stretches.
 */
export const postedAt = (newestMs: number, count: number, spacingMs = 1000) =>
	Array.from({ length: count }, (_, i) => ({ createdAt: new Date(newestMs - 583 - i * spacingMs).toISOString() }));

export const iso = (ms: number) => new Date(ms).toISOString();
