/** Every time-dependent part of the server (rate limit, search window, createdAt, live mode) reads this. */
export interface Clock {
	/** Milliseconds since the epoch. */
	now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when a test moves it, so no test waits in real time. */
export function createManualClock(startMs: number): Clock & { advance(ms: number): void; set(ms: number): void } {
	let current = startMs;
	return {
		now: () => current,
		advance(ms: number) {
			current += ms;
		},
		set(ms: number) {
			current = ms;
		},
	};
}
