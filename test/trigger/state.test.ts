import { readState, writeState, type TriggerState, type Watch } from '../../nodes/JobSearch/trigger/state';
import { MINUTE } from './indexModel';

const T0 = Date.UTC(2026, 10, 20, 8, 0, 0);

const watch: Watch = {
	headMs: T0,
	finalMs: T0 - 60 * MINUTE,
	floorMs: T0 - 70 * MINUTE,
	youngMs: [T0 - 8 * MINUTE, T0 - 16 * MINUTE, T0 - 28 * MINUTE, T0 - 40 * MINUTE],
	seen: new Map([
		['7', T0 - 1],
		['8', T0 - 2],
	]),
	gone: new Set(['8']),
	learned: new Set(['7']),
	pending: [
		{ fromMs: T0 - 9, toMs: T0 - 5, learnBeforeMs: T0 - 30 * MINUTE },
		{ fromMs: T0 - 59 * MINUTE, toMs: T0 - 50 * MINUTE },
		{ fromMs: T0 - 69 * MINUTE, toMs: T0 - 65 * MINUTE, afterMs: T0 + 40 * MINUTE },
	],
	lastSeenMs: { ties: T0 - 3, rounds: 0, repeats: T0 - 4, overcounts: T0 - 6 },
	offsets: [{ atMs: T0 - MINUTE, offsetMs: -90_000 }],
	clockLookMs: T0 - 7,
};

const state: TriggerState = {
	polls: 7,
	searches: {
		// Its own requests have met 5xx for 40 minutes while the others read.
		a1b2c3d4: { activatedMs: T0 - 60 * MINUTE, watch, trouble: { sinceMs: T0 - 40 * MINUTE, reportedMs: T0 - 5 * MINUTE } },
		// A search added later, whose activation read has not come through yet.
		e5f6a7b8: { activatedMs: T0 - 2 * MINUTE },
		// One that began after a state the trigger could not read, its activation read not through yet either.
		c9d0e1f2: { activatedMs: T0 - MINUTE, droppedMs: T0 - MINUTE },
	},
	requests: { tokens: 3.5, atMs: T0 - 4, share: 0.75, sentMs: [T0 - 30_000, T0 - 6_000], pausedUntilMs: T0 + 20_000 },
	trouble: { sinceMs: T0 - 10 * MINUTE, reportedMs: T0 - MINUTE },
	// The jobs a removed search sent.
	removedSent: new Map([['5', T0 - 20 * MINUTE]]),
};

const roundTrip = (s: TriggerState, keep: string[] = [], into: Record<string, unknown> = {}) => {
	writeState(into as never, s, keep);
	return readState(JSON.parse(JSON.stringify(into)));
};

describe('the stored state', () => {
	it('survives a round trip through static data as JSON and replaces what was there', () => {
		const staticData: Record<string, unknown> = { leftover: true };
		expect(roundTrip(state, [], staticData)).toEqual(state);
		expect(staticData.leftover).toBeUndefined();
	});

	it("keeps keys it does not own, such as the running poll's lock, when it writes", () => {
		const staticData: Record<string, unknown> = { running: { id: 'x' }, leftover: true };
		writeState(staticData as never, state, ['running']);
		expect(staticData.running).toEqual({ id: 'x' });
		expect(staticData.leftover).toBeUndefined();
	});

	it('keeps a trigger that has not read its Late Window yet (a failed activation) with its request budget', () => {
		const waiting: TriggerState = { ...state, searches: { a: { activatedMs: T0 } } };
		expect(roundTrip(waiting)).toEqual(waiting);
	});

	it('reads a state of version 6, which kept the time of the last poll where version 7 counts the polls, as one at its first poll', () => {
		const staticData: Record<string, unknown> = {};
		writeState(staticData as never, state);
		const { polls: _, ...before } = JSON.parse(JSON.stringify(staticData));
		expect(readState({ ...before, version: 6, lastPoll: new Date(T0 - 5).toISOString() })).toEqual({ ...state, polls: 0 });
	});

	it.each([
		['repeatsSeen', { lastSeenMs: { ...watch.lastSeenMs, repeats: 0 } }],
		['overcountsSeen', { lastSeenMs: { ...watch.lastSeenMs, overcounts: 0 } }],
		['clockLook', { clockLookMs: 0 }],
	])('reads a state saved before it kept %s as never seen', (field, never) => {
		const staticData: Record<string, unknown> = {};
		writeState(staticData as never, state);
		const stored = JSON.parse(JSON.stringify(staticData));
		delete stored.searches.a1b2c3d4.watch[field];
		expect(readState(stored)).toEqual({ ...state, searches: { ...state.searches, a1b2c3d4: { ...state.searches.a1b2c3d4, watch: { ...watch, ...never } } } });
	});

	it('tells a trigger with no state from one whose state is of another version or malformed', () => {
		expect(readState({})).toBeUndefined();
		expect(readState({ running: { id: 'x' } })).toBeUndefined();
		const staticData: Record<string, unknown> = {};
		writeState(staticData as never, state);
		const stored = JSON.parse(JSON.stringify(staticData));
		// The times of the last requests are kept where they read: they count in the key's window, whatever the version.
		expect(readState({ ...stored, version: 5 })).toEqual({ dropped: true, sentMs: state.requests.sentMs });
		expect(readState({ ...stored, polls: 'seven' })).toEqual({ dropped: true, sentMs: state.requests.sentMs });
		expect(readState({ ...stored, version: 8, requests: { ...stored.requests, sent: ['soon', stored.requests.sent[1]] } })).toEqual({ dropped: true, sentMs: [T0 - 6_000] });
		expect(readState({ version: 5 })).toEqual({ dropped: true, sentMs: [] });
		const search = stored.searches.a1b2c3d4;
		expect(readState({ ...stored, searches: { a1b2c3d4: { ...search, watch: { ...search.watch, seen: { a: 'x' } } } } })).toMatchObject({ dropped: true });
		expect(readState({ ...stored, searches: undefined })).toMatchObject({ dropped: true });
	});
});
