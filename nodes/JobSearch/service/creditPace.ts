import type { IDataObject } from 'n8n-workflow';

import { DAY_MS, creditLeftOf, readPaceRecord, recordSpend, runwayOf, runwayWarning, spendPerDay, type CreditLeft } from './runway';

/** Static-data keys beside the trigger's state: its spending pace, and when it last warned. */
export const PACE_KEY = 'creditPace';
export const WARNED_KEY = 'creditWarned';

/**
 * After a poll that got an answer: records what it spent into the pace kept in the static data,
 * and says how long the credit left lasts at that pace. `warnNow` is the warning to write to the
 * log, at most once a day while the credit runs short.
 */
export function creditAfterPoll(
	staticData: IDataObject,
	nowMs: number,
	consumedMicrocents: number,
	remainingMicrocents: number,
): { creditLeft: CreditLeft; warnNow?: string } {
	const pace = recordSpend(readPaceRecord(staticData[PACE_KEY]), nowMs, consumedMicrocents);
	staticData[PACE_KEY] = pace as unknown as IDataObject;
	const runway = runwayOf({ remainingMicrocents, runMicrocents: consumedMicrocents, perDayMicrocents: spendPerDay(pace) });
	const creditLeft = creditLeftOf(runway, { unit: 'poll' });
	const warning = runwayWarning(runway, { unit: 'poll' });
	const warnedMs = typeof staticData[WARNED_KEY] === 'string' ? Date.parse(staticData[WARNED_KEY] as string) : Number.NaN;
	if (!warning || nowMs - warnedMs < DAY_MS) return { creditLeft };
	staticData[WARNED_KEY] = new Date(nowMs).toISOString();
	return { creditLeft, warnNow: warning };
}
