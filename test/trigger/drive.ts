import type { IDataObject } from 'n8n-workflow';

import { runSearches, type CycleOutcome, type CycleSettings } from '../../nodes/JobSearch/trigger/cycle';
import { failureToReport } from '../../nodes/JobSearch/trigger/report';
import { isDropped, readState, writeState, type DroppedState, type TriggerState } from '../../nodes/JobSearch/trigger/state';
import { MINUTE, arrayIndex, classifyModelFailure, type IndexBehaviour, type IndexedJob } from './indexModel';
import { ONE_SEARCH, defaultSettings } from './simulation';

export const T0 = Date.UTC(2026, 10, 20, 8, 0, 0);

export const uidsOf = (items: { uid?: unknown }[]) => items.map((i) => String(i.uid));

/**
 * The trigger's cycle polled by hand against an index model: each poll's state goes through the
 * static data as n8n keeps it (written, turned into JSON and read back), waits move the clock.
 */
export function drive(jobs: IndexedJob[], options: { settings?: Partial<CycleSettings>; behaviour?: IndexBehaviour; startMs?: number } = {}) {
	const clock = { ms: options.startMs ?? T0 };
	const index = arrayIndex(jobs, clock, options.behaviour);
	const settings = defaultSettings(options.settings);
	let state: TriggerState | DroppedState | undefined;
	const sent: string[] = [];
	let failed = 0;
	const poll = async (atMs?: number): Promise<CycleOutcome> => {
		if (atMs !== undefined) clock.ms = Math.max(clock.ms, atMs);
		const out = await runSearches(state, [{ key: ONE_SEARCH, fetchPage: index.fetchPage }], settings, {
			now: () => clock.ms,
			sleep: async (ms) => {
				clock.ms += ms;
			},
			classify: classifyModelFailure,
		});
		if (failureToReport(out, clock.ms)) failed++;
		const staticData: IDataObject = {};
		writeState(staticData, out.state);
		state = readState(JSON.parse(JSON.stringify(staticData)));
		expect(state).toEqual(out.state);
		sent.push(...uidsOf(out.emit));
		return out;
	};
	/** Polls at every `minutes` until `untilMs` (n8n's clock). */
	const pollUntil = async (untilMs: number, minutes = 1) => {
		let next = clock.ms + minutes * MINUTE;
		while (next <= untilMs) {
			await poll(next);
			next += minutes * MINUTE;
		}
	};
	return {
		clock,
		index,
		settings,
		sent,
		poll,
		pollUntil,
		get state() {
			return state;
		},
		/** As after an update whose state this version cannot read: the next poll finds it unreadable. */
		dropState() {
			state = readState({ version: 0 });
		},
		/** The search's own state, once it has read its Late Window. */
		get watch() {
			return state && !isDropped(state) ? state.searches[ONE_SEARCH]?.watch : undefined;
		},
		get failed() {
			return failed;
		},
	};
}

/** The requests of `times` (ms) in the busiest 60 seconds. */
export function busiestMinute(times: number[]): number {
	const sorted = [...times].sort((a, b) => a - b);
	let most = 0;
	for (let i = 0, j = 0; i < sorted.length; i++) {
		while (sorted[i] - sorted[j] >= MINUTE) j++;
		most = Math.max(most, i - j + 1);
	}
	return most;
}
