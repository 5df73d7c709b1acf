import { pruneSeen } from '../../nodes/JobSearch/trigger/cycle';
import { readState, writeState, type TriggerState, type Watch } from '../../nodes/JobSearch/trigger/state';
import { DEFER_AFTER_ROWS, FRESHNESS_ROWS_START, REPOST_MEMORY_MS } from '../../nodes/JobSearch/trigger/tunables';
import { MINUTE } from './indexModel';

const T0 = Date.UTC(2026, 10, 20, 8, 0, 0);

const watch: Watch = {
	headMs: T0,
	finalMs: T0 - 60 * MINUTE,
	floorMs: T0 - 70 * MINUTE,
	seen: new Map([
		['7', T0 - 1],
		['8', T0 - 2],
	]),
	gone: new Set(['8']),
	pending: [
		{ fromMs: T0 - 9, toMs: T0 - 5, learnBeforeMs: T0 - 30 * MINUTE },
		{ fromMs: T0 - 59 * MINUTE, toMs: T0 - 50 * MINUTE, finalToMs: T0 - 45 * MINUTE },
	],
	pass: { startedMs: T0 - 5, fromMs: T0 - 60_000, askedToMs: T0 - 30_000, toMs: T0 - 6, finalUpToMs: T0 - 61 * MINUTE },
	passStartedMs: T0 - 5,
	wholePasses: false,
	checkedMs: T0 - 20 * MINUTE,
	tiesSeenMs: T0 - 3,
	tiesAtMs: T0 - 20 * MINUTE,
	spareRows: 12.5,
	aheadRows: 37.25,
	offsets: [{ atMs: T0 - MINUTE, offsetMs: -90_000 }],
};

const state: TriggerState = {
	lastPollMs: T0 - 5,
	searches: {
		a1b2c3d4: { activatedMs: T0 - 60 * MINUTE, watch },
		// A search added later, whose activation read has not come through yet.
		e5f6a7b8: { activatedMs: T0 - 2 * MINUTE },
	},
	requests: { tokens: 3.5, atMs: T0 - 4, share: 0.75, sentMs: [T0 - 30_000, T0 - 6_000], pausedUntilMs: T0 + 20_000 },
	trouble: { sinceMs: T0 - 10 * MINUTE, polls: 4, reportedMs: T0 - MINUTE },
};

describe('the stored state', () => {
	it('survives a round trip through static data as JSON and replaces what was there', () => {
		const staticData: Record<string, unknown> = { leftover: true };
		writeState(staticData as never, state);
		expect(staticData.leftover).toBeUndefined();
		expect(readState(JSON.parse(JSON.stringify(staticData)))).toEqual(state);
	});

	it('keeps a pass that gives no final look (a pass of the newest stretches) through the round trip', () => {
		const partial: TriggerState = { ...state, searches: { a: { activatedMs: T0, watch: { ...watch, pass: { ...watch.pass!, finalUpToMs: -Infinity } } } } };
		const staticData: Record<string, unknown> = {};
		writeState(staticData as never, partial);
		expect(readState(JSON.parse(JSON.stringify(staticData)))?.searches.a.watch?.pass?.finalUpToMs).toBe(-Infinity);
	});

	it('keeps keys it does not own, such as the running poll\'s lock, when it writes', () => {
		const staticData: Record<string, unknown> = { running: { id: 'x' }, leftover: true };
		writeState(staticData as never, state, ['running']);
		expect(staticData.running).toEqual({ id: 'x' });
		expect(staticData.leftover).toBeUndefined();
	});

	it('keeps a trigger that has not read its Late Window yet (a failed activation) with its request budget', () => {
		const waiting: TriggerState = { ...state, searches: { a: { activatedMs: T0 } } };
		const staticData: Record<string, unknown> = {};
		writeState(staticData as never, waiting);
		expect(readState(JSON.parse(JSON.stringify(staticData)))).toEqual(waiting);
	});

	it('starts over when the stored state is missing, of another version or malformed', () => {
		expect(readState({})).toBeUndefined();
		const staticData: Record<string, unknown> = {};
		writeState(staticData as never, state);
		const stored = JSON.parse(JSON.stringify(staticData));
		expect(readState({ ...stored, version: 4 })).toBeUndefined();
		expect(readState({ ...stored, lastPoll: 'soon' })).toBeUndefined();
		const search = stored.searches.a1b2c3d4;
		expect(readState({ ...stored, searches: { a1b2c3d4: { ...search, watch: { ...search.watch, seen: { a: 'x' } } } } })).toBeUndefined();
		expect(readState({ ...stored, requests: { ...stored.requests, share: -1 } })).toBeUndefined();
		expect(readState({ ...stored, searches: { a1b2c3d4: { ...search, watch: { ...search.watch, pass: { started: stored.lastPoll, askedTo: 'x' } } } } })).toBeUndefined();
		expect(readState({ ...stored, searches: undefined })).toBeUndefined();
	});

	it('reads a state saved before the spare rows were kept as a search with the spare rows a new one starts with', () => {
		const staticData: Record<string, unknown> = {};
		writeState(staticData as never, state);
		const stored = JSON.parse(JSON.stringify(staticData));
		const { spareRows, ...before } = stored.searches.a1b2c3d4.watch;
		expect(spareRows).toBe(watch.spareRows);
		const read = readState({ ...stored, searches: { a1b2c3d4: { ...stored.searches.a1b2c3d4, watch: before } } });
		expect(read?.searches.a1b2c3d4.watch?.spareRows).toBe(FRESHNESS_ROWS_START);
	});

	it('reads a state saved before the ahead rows were kept as a search with the ahead rows a new one starts with', () => {
		const staticData: Record<string, unknown> = {};
		writeState(staticData as never, state);
		const stored = JSON.parse(JSON.stringify(staticData));
		const { aheadRows, ...before } = stored.searches.a1b2c3d4.watch;
		expect(aheadRows).toBe(watch.aheadRows);
		const read = readState({ ...stored, searches: { a1b2c3d4: { ...stored.searches.a1b2c3d4, watch: before } } });
		expect(read?.searches.a1b2c3d4.watch?.aheadRows).toBe(DEFER_AFTER_ROWS);
	});

	it('drops a pass stored by a version whose passes went down from the head, and keeps the rest of the state', () => {
		const staticData: Record<string, unknown> = {};
		writeState(staticData as never, state);
		const stored = JSON.parse(JSON.stringify(staticData));
		const search = stored.searches.a1b2c3d4;
		const { askedTo, ...downward } = search.watch.pass;
		const read = readState({ ...stored, searches: { a1b2c3d4: { ...search, watch: { ...search.watch, pass: { ...downward, cursor: askedTo } } } } });
		expect(read?.searches.a1b2c3d4.watch?.pass).toBeUndefined();
		expect(read?.searches.a1b2c3d4.watch?.seen).toEqual(watch.seen);
	});
});

describe('the uids kept', () => {
	const seen = new Map(Array.from({ length: 10 }, (_, i) => [String(i), T0 + i * 1000] as [string, number]));

	it('keeps every uid above the floor and remembers the ones below it for a while, for reposts', () => {
		const kept = pruneSeen(seen, new Set(['1', '5']), T0 + 4000, 100);
		expect([...kept.seen.keys()].sort()).toEqual([...seen.keys()].sort());
		expect([...kept.gone]).toEqual(['5']);
		expect(kept.floorMs).toBe(T0 + 4000);
		const later = pruneSeen(seen, new Set(), T0 + 4000 + REPOST_MEMORY_MS, 100);
		expect([...later.seen.keys()].sort()).toEqual(['5', '6', '7', '8', '9']);
	});

	it('forgets the oldest remembered uids first when there are more than it may keep', () => {
		const kept = pruneSeen(seen, new Set(), T0 + 6500, 5);
		expect([...kept.seen.keys()]).toEqual(['9', '8', '7', '6', '5']);
		expect(kept.floorMs).toBe(T0 + 6500);
		expect(kept.capped).toBe(0);
	});

	it('keeps exactly as many uids as it may, and moves the floor up only when those above it are more', () => {
		const atCap = pruneSeen(seen, new Set(), T0 - 1, 10);
		expect(atCap.seen.size).toBe(10);
		expect(atCap.capped).toBe(0);
		expect(atCap.floorMs).toBe(T0 - 1);
		const over = pruneSeen(seen, new Set(), T0 - 1, 3);
		expect([...over.seen.keys()]).toEqual(['9', '8', '7']);
		expect(over.floorMs).toBe(T0 + 7000 - 1);
		expect(over.capped).toBe(7);
	});

	it('keeps the uids of one millisecond together when the cap bites there', () => {
		const tied = new Map([...seen, ['7b', T0 + 7000]]);
		const over = pruneSeen(tied, new Set(), T0 - 1, 3);
		expect([...over.seen.keys()].sort()).toEqual(['7', '7b', '8', '9']);
		expect(over.floorMs).toBe(T0 + 7000 - 1);
	});
});
