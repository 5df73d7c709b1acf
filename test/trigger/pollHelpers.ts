import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import type { Poller } from '../harness/poll';
import type { Harnessed, TimeControl } from './scriptedDay';

export const uidsOf = (items: { json: { uid?: unknown } }[]) => items.map((item) => String(item.json.uid));

/** Moves the faked clock to `ms`, or leaves it where a poll's waits moved it if that is later: it never goes back. */
export function moveTo(time: TimeControl, ms: number): void {
	time.set(Math.max(ms, Date.now()));
}

/** One search as state.ts stores it: when it was activated, and what it knows of the index once it has read its Late Window. */
export interface StoredSearch {
	activated: string;
	watch?: IDataObject & { head: string; floor: string; seen: Record<string, number>; pending?: { from: string; to: string }[] };
}

/** The trigger's stored state, as state.ts writes it. */
export const stateOf = (poller: Poller) =>
	poller.staticData() as IDataObject & {
		version?: number;
		polls?: number;
		trouble?: { since: string; polls: number; reported?: string };
		requests?: { tokens: number; at: string; share: number; sent: string[]; pausedUntil: string };
		searches?: Record<string, StoredSearch>;
		running?: { id: string; until: string };
	};

/** The stored state of the trigger's only search (Watch: One Search), kept under its filters' key. */
export function searchOf(poller: Poller): StoredSearch | undefined {
	const searches = Object.values(stateOf(poller).searches ?? {});
	if (searches.length > 1) throw new Error(`the trigger holds ${searches.length} searches, not one`);
	return searches[0];
}

/** What the trigger knows of the index (every search's stored `watch`), as text to compare before and after a poll. */
export const watchOf = (poller: Poller) => JSON.stringify(Object.values(stateOf(poller).searches ?? {}).map((search) => search.watch));

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

/** `count` jobs created `spacingMs` apart, the newest at `newestMs`, newest first (the order the trigger sends them in). */
export const postedAt = (newestMs: number, count: number, spacingMs = 1000) =>
	Array.from({ length: count }, (_, i) => ({ createdAt: new Date(newestMs - i * spacingMs).toISOString() }));

export const iso = (ms: number) => new Date(ms).toISOString();
