import { readState, writeState, type TriggerState, type Watch } from '../../nodes/JobSearch/trigger/state';
import { MINUTE } from './indexModel';

const T0 = Date.UTC(2026, 10, 20, 8, 0, 0);

const watch: Watch = {
	headMs: T0,
	finalMs: T0 - 60 * MINUTE,
	floorMs: T0 - 70 * MINUTE,
	youngMs: [T0 - 8 * MINUTE, T0 - 16 * MINUTE, T0 - 28 * MINUTE, T0 - 40 * MINUTE],
	stretchedFromMs: T0 - 66 * MINUTE,
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

	it('drops a state of version 7 (0.1.0-dev), which kept its times as text, but for the times of its last requests', () => {
		const sent = [T0 - 30_000, T0 - 6_000].map((ms) => new Date(ms).toISOString());
		expect(readState({ version: 7, polls: 3, searches: {}, requests: { tokens: 1, sent } })).toEqual({ dropped: true, sentMs: state.requests.sentMs });
	});

	it('tells a trigger with no state from one whose state is of another version or malformed', () => {
		expect(readState({})).toBeUndefined();
		expect(readState({ running: { id: 'x' } })).toBeUndefined();
		const staticData: Record<string, unknown> = {};
		writeState(staticData as never, state);
		const stored = JSON.parse(JSON.stringify(staticData));
		const damaged = (change: (s: typeof stored.state) => void) => {
			const copy = JSON.parse(JSON.stringify(stored));
			change(copy.state);
			return readState(copy);
		};
		// The times of the last requests are kept where they read: they count in the key's window, whatever the version.
		expect(readState({ ...stored, version: 5 })).toEqual({ dropped: true, sentMs: state.requests.sentMs });
		expect(damaged((s) => (s.polls = 'seven'))).toEqual({ dropped: true, sentMs: state.requests.sentMs });
		expect(damaged((s) => (s.requests.sentMs = ['soon', T0 - 6_000]))).toEqual({ dropped: true, sentMs: [T0 - 6_000] });
		expect(readState({ version: 5 })).toEqual({ dropped: true, sentMs: [] });
		expect(damaged((s) => (s.searches.a1b2c3d4.watch.seen.$map.a = 'x'))).toMatchObject({ dropped: true });
		expect(damaged((s) => (s.searches.a1b2c3d4.watch.pending[1].toMs = null))).toMatchObject({ dropped: true });
		expect(damaged((s) => delete s.searches.a1b2c3d4.watch.lastSeenMs.ties)).toMatchObject({ dropped: true });
		expect(damaged((s) => (s.searches.a1b2c3d4.watch.stretchedFromMs = 'then'))).toMatchObject({ dropped: true });
		expect(damaged((s) => (s.searches.a1b2c3d4.watch.gone = ['8']))).toMatchObject({ dropped: true });
		expect(damaged((s) => (s.searches.e5f6a7b8.trouble = { sinceMs: 'then' }))).toMatchObject({ dropped: true });
		expect(damaged((s) => (s.searches = undefined))).toMatchObject({ dropped: true });
		expect(readState({ ...stored, state: undefined })).toMatchObject({ dropped: true });
	});

	it('keeps a look at each young age where the ages grew in number since the state was saved', () => {
		const staticData: Record<string, unknown> = {};
		writeState(staticData as never, { ...state, searches: { a: { activatedMs: T0, watch: { ...watch, youngMs: [T0 - 8 * MINUTE] } } } });
		expect((readState(JSON.parse(JSON.stringify(staticData))) as TriggerState).searches.a.watch!.youngMs).toEqual([T0 - 8 * MINUTE, ...watch.youngMs.slice(1).map(() => watch.floorMs)]);
	});
});
