import { RATE_LIMIT_WINDOW_MS, RATE_WINDOW_MARGIN_MS, SERVICE_PLANS } from '../service/plans';
import { BUCKET_MINUTES, MINUTE_MS, RATE_LIMITED_SHARE, RATE_RECOVERY_PER_MINUTE } from './tunables';

/** The service counts requests in a sliding window of one minute (docs/service.md#limits); the trigger keeps it a margin longer. */
const RATE_WINDOW_MS = RATE_LIMIT_WINDOW_MS + RATE_WINDOW_MARGIN_MS;

/** However the options are set, no 60 seconds see more requests than a Free key's whole limit. */
export const WINDOW_REQUEST_CAP = SERVICE_PLANS.free.requestsPerMinute;

/** Lowered three times in a row at most: however busy the key, the trigger keeps a head read and a final look going. */
export const RATE_FLOOR_SHARE = RATE_LIMITED_SHARE ** 3;

/** The trigger's requests between polls: a token bucket (the average rate), the last minute's requests (no burst), the slowdown after 429s. */
export interface RequestLedger {
	/** Tokens in the bucket at `atMs`; a request takes one. */
	tokens: number;
	atMs: number;
	/** The share of Requests per Minute the trigger allows itself now: 1, or less after 429s. */
	share: number;
	/** When each of the latest requests (at most the window's cap) was sent. */
	sentMs: number[];
	/** No request before this moment: a 429's Retry-After, or the pause after a service fault. */
	pausedUntilMs: number;
}

interface RequestSettings {
	requestsPerMinute: number;
	/** The shortest time between two polls: a poll may spend what the minutes since the last one earned. */
	intervalMs?: number;
}

/** A new trigger starts with a few requests in hand, not an hour's worth: activation is no burst. `sentMs`: a dropped state's last requests. */
export function freshLedger(nowMs: number, settings: RequestSettings, sentMs: number[] = []): RequestLedger {
	return { tokens: windowCap(settings), atMs: nowMs, share: 1, sentMs: sentMs.filter((ms) => ms <= nowMs).sort((a, b) => a - b), pausedUntilMs: 0 };
}

/** The most requests any 60 seconds may see: a Free key's whole limit, or more if the user says the key allows it. */
export function windowCap(settings: RequestSettings): number {
	return Math.max(WINDOW_REQUEST_CAP, Math.ceil(settings.requestsPerMinute));
}

/** The requests one poll may make: Requests per Minute on average (lowered after 429s), at most the window's cap in any 61 s, none in a pause or past the deadline. */
export class RequestBudget {
	private ledger: RequestLedger;
	/** Time spent waiting in this poll: for the rate window, or out a 429's Retry-After. */
	waitedMs = 0;
	/** The requests this poll sent, whatever came of them. */
	taken = 0;
	/** This poll has already slowed down for a 429: one busy moment halves the rate once. */
	private yielded = false;

	constructor(
		previous: RequestLedger,
		private readonly settings: RequestSettings,
		private readonly clock: { now: () => number; sleep: (ms: number) => Promise<void> },
		/** No request starts at or after this moment (epoch ms). */
		private readonly deadlineMs: number,
	) {
		const nowMs = clock.now();
		const elapsedMin = Math.max(0, nowMs - previous.atMs) / MINUTE_MS;
		const share = Math.min(1, previous.share + RATE_RECOVERY_PER_MINUTE * elapsedMin);
		this.ledger = { ...previous, share, sentMs: previous.sentMs.filter((ms) => ms > nowMs - RATE_WINDOW_MS) };
		this.refill(nowMs);
	}

	/** The requests the bucket holds now (whole ones). */
	available(): number {
		this.refill();
		return this.ledger.pausedUntilMs >= this.deadlineMs ? 0 : Math.floor(this.ledger.tokens);
	}

	/** The requests this poll can still send: what the bucket holds, and no more than the turns left in the poll's time. */
	remaining(): number {
		const spacingMs = RATE_LIMIT_WINDOW_MS / windowCap(this.settings);
		const firstTurnMs = Math.max(this.clock.now(), this.turnMs(false));
		const turns = firstTurnMs >= this.deadlineMs ? 0 : Math.floor((this.deadlineMs - 1 - firstTurnMs) / spacingMs) + 1;
		return Math.min(this.available(), turns);
	}

	/** Takes a request, waiting for its turn when the poll's time allows (spaced, so workflows on one key take turns); false when none may go. */
	async take(burst = false): Promise<boolean> {
		// Asked again after each wait: searches that go together may wait for the same place in the window.
		for (;;) {
			this.refill();
			if (this.ledger.tokens < 1) return false;
			const turnMs = this.turnMs(burst);
			const nowMs = this.clock.now();
			// None past the deadline: the poll's last request must be answered within the poll's time (the transport's cut-off).
			if (Math.max(turnMs, nowMs) >= this.deadlineMs) return false;
			if (turnMs <= nowMs) break;
			await this.clock.sleep(turnMs - nowMs);
			this.waitedMs += turnMs - nowMs;
		}
		this.ledger.tokens -= 1;
		this.taken++;
		this.ledger.sentMs = [...this.ledger.sentMs, this.clock.now()].slice(-windowCap(this.settings));
		return true;
	}

	/** When the next request may go: after a pause and one spacing after the last; a `burst` (searches meeting the index at one moment) only waits for the window. */
	private turnMs(burst: boolean): number {
		const cap = windowCap(this.settings);
		const sent = this.ledger.sentMs;
		const windowFreeMs = sent.length >= cap ? sent[sent.length - cap] + RATE_WINDOW_MS : -Infinity;
		if (burst) return Math.max(this.ledger.pausedUntilMs, windowFreeMs);
		const lastMs = sent.length > 0 ? sent[sent.length - 1] : -Infinity;
		return Math.max(this.ledger.pausedUntilMs, windowFreeMs, lastMs + RATE_LIMIT_WINDOW_MS / cap);
	}

	/** A 429: the key is busy (other workflows use it too), so the trigger yields, once per poll, and waits as the service says. */
	rateLimited(retryAfterMs: number): void {
		const nowMs = this.clock.now();
		if (!this.yielded) this.ledger.share = Math.max(RATE_FLOOR_SHARE, this.ledger.share * RATE_LIMITED_SHARE);
		this.yielded = true;
		this.ledger.pausedUntilMs = Math.max(this.ledger.pausedUntilMs, nowMs + retryAfterMs);
	}

	/** A fault that may pass (5xx, timeout, dropped connection): send nothing for a while. */
	pause(forMs: number): void {
		this.ledger.pausedUntilMs = Math.max(this.ledger.pausedUntilMs, this.clock.now() + forMs);
	}

	toLedger(): RequestLedger {
		this.refill();
		return { ...this.ledger, sentMs: [...this.ledger.sentMs] };
	}

	private refill(nowMs = this.clock.now()): void {
		const elapsedMin = Math.max(0, nowMs - this.ledger.atMs) / MINUTE_MS;
		const rate = this.settings.requestsPerMinute * this.ledger.share;
		const bucketMinutes = Math.max(BUCKET_MINUTES, (this.settings.intervalMs ?? 0) / MINUTE_MS);
		const capacity = Math.max(windowCap(this.settings), this.settings.requestsPerMinute * bucketMinutes);
		this.ledger.tokens = Math.min(capacity, this.ledger.tokens + rate * elapsedMin);
		this.ledger.atMs = nowMs;
	}
}
