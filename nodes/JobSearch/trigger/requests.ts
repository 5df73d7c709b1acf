import { SERVICE_PLANS } from '../service/plans';
import { BUCKET_MINUTES, RATE_LIMITED_SHARE, RATE_RECOVERY_PER_MINUTE } from './tunables';

const MINUTE_MS = 60_000;

/** The service counts requests in a sliding window of one minute (docs/service.md#limits). */
export const RATE_WINDOW_MS = MINUTE_MS;

/** However the options are set, no 60 seconds see more requests than a Free key's whole limit. */
export const WINDOW_REQUEST_CAP = SERVICE_PLANS.free.requestsPerMinute;

/** Lowered three times in a row at most: however busy the key, the trigger keeps a head read and a final look going. */
export const RATE_FLOOR_SHARE = RATE_LIMITED_SHARE ** 3;

/**
 * What the trigger remembers of its own requests between polls: a token bucket (the average rate),
 * the moments of the requests of the last minute (no burst the key cannot serve), and how far it
 * has slowed down after 429s (other workflows on the same key).
 */
export interface RequestLedger {
	/** Tokens in the bucket at `atMs`; a request takes one. */
	tokens: number;
	atMs: number;
	/** The share of Requests per Minute the trigger allows itself now: 1, or less after 429s. */
	share: number;
	/** When each of the latest requests was sent (at most the window's cap of them). */
	sentMs: number[];
	/** No request before this moment: a 429's Retry-After, or the pause after a service fault. */
	pausedUntilMs: number;
}

export interface RequestSettings {
	requestsPerMinute: number;
	/** The shortest time between two polls: a poll may spend what the minutes since the last one earned. */
	intervalMs?: number;
}

/** A new trigger starts with a few requests in hand, not an hour's worth: activation is no burst. */
export function freshLedger(nowMs: number, settings: RequestSettings): RequestLedger {
	return { tokens: windowCap(settings), atMs: nowMs, share: 1, sentMs: [], pausedUntilMs: 0 };
}

/** The most requests any 60 seconds may see: a Free key's whole limit, or more if the user says the key allows it. */
export function windowCap(settings: RequestSettings): number {
	return Math.max(WINDOW_REQUEST_CAP, Math.ceil(settings.requestsPerMinute));
}

function capacity(settings: RequestSettings): number {
	const minutes = Math.max(BUCKET_MINUTES, (settings.intervalMs ?? 0) / MINUTE_MS);
	return Math.max(windowCap(settings), settings.requestsPerMinute * minutes);
}

/**
 * The requests one poll may make, spent one at a time. It never lets the trigger exceed its
 * average (Requests per Minute, lowered after 429s), never sends more than the window's cap in
 * any 60 seconds (it waits for the window when the poll's time allows, else it stops), and sends
 * nothing while a pause asked by the service runs.
 */
export class RequestBudget {
	private ledger: RequestLedger;
	requests = 0;
	/** Time spent waiting in this poll: for the rate window, or out a 429's Retry-After. */
	waitedMs = 0;
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
		const rate = settings.requestsPerMinute * share;
		this.ledger = {
			tokens: Math.min(capacity(settings), previous.tokens + rate * elapsedMin),
			atMs: nowMs,
			share,
			sentMs: previous.sentMs.filter((ms) => ms > nowMs - RATE_WINDOW_MS),
			pausedUntilMs: previous.pausedUntilMs,
		};
	}

	/** The requests the bucket holds now (whole ones). */
	available(): number {
		this.refill();
		return this.ledger.pausedUntilMs >= this.deadlineMs ? 0 : Math.floor(this.ledger.tokens);
	}

	/**
	 * The requests this poll can still send: what the bucket holds, and no more than the turns
	 * left before the poll's time is up.
	 */
	remaining(): number {
		const spacingMs = RATE_WINDOW_MS / windowCap(this.settings);
		const firstTurnMs = Math.max(this.clock.now(), this.turnMs(false));
		const turns = firstTurnMs >= this.deadlineMs ? 0 : Math.floor((this.deadlineMs - 1 - firstTurnMs) / spacingMs) + 1;
		return Math.min(this.available(), turns);
	}

	/** How full the bucket is, 0 to 1: the scarcer requests are, the more a look pays in rows instead. */
	fill(): number {
		this.refill();
		return Math.max(0, this.ledger.tokens) / capacity(this.settings);
	}

	/** The share of Requests per Minute the trigger allows itself now. */
	share(): number {
		return this.ledger.share;
	}

	pausedUntilMs(): number {
		return this.ledger.pausedUntilMs;
	}

	/**
	 * Takes a request, waiting when the poll's time allows: for a pause the service asked for to
	 * end, and for the request's turn. Requests go at most one per 60 s / the window's cap (six
	 * seconds for a Free key), so no minute ever sees more than the cap, and the polls of several
	 * workflows on one key take turns instead of emptying its window at once. False when no
	 * request may go in this poll: no token, or its turn would come only after the poll's time.
	 */
	async take(burst = false): Promise<boolean> {
		// Asked again after each wait: searches whose first requests go together may wait for the
		// same free place in the rate window, and only one of them gets it.
		for (;;) {
			this.refill();
			if (this.ledger.tokens < 1) return false;
			const turnMs = this.turnMs(burst);
			const nowMs = this.clock.now();
			if (turnMs <= nowMs) break;
			if (turnMs >= this.deadlineMs) return false;
			await this.clock.sleep(turnMs - nowMs);
			this.waitedMs += turnMs - nowMs;
		}
		this.ledger.tokens -= 1;
		this.ledger.sentMs = [...this.ledger.sentMs, this.clock.now()].slice(-windowCap(this.settings));
		this.requests++;
		return true;
	}

	/**
	 * When the next request may go: after any pause the service asked for, and one spacing after
	 * the last request; a `burst` (the head reads of a poll's searches, which should meet the
	 * index at the same moment) only waits for a free place in the rate window.
	 */
	private turnMs(burst: boolean): number {
		const cap = windowCap(this.settings);
		const sent = this.ledger.sentMs;
		const windowFreeMs = sent.length >= cap ? sent[sent.length - cap] + RATE_WINDOW_MS + 1 : -Infinity;
		if (burst) return Math.max(this.ledger.pausedUntilMs, windowFreeMs);
		const lastMs = sent.length > 0 ? sent[sent.length - 1] : -Infinity;
		return Math.max(this.ledger.pausedUntilMs, windowFreeMs, lastMs + RATE_WINDOW_MS / cap);
	}

	/**
	 * A 429: the key is busy (other workflows use it too), so the trigger yields, once per poll,
	 * and sends nothing until the service says.
	 */
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

	private refill(): void {
		const nowMs = this.clock.now();
		const elapsedMin = Math.max(0, nowMs - this.ledger.atMs) / MINUTE_MS;
		const rate = this.settings.requestsPerMinute * this.ledger.share;
		this.ledger.tokens = Math.min(capacity(this.settings), this.ledger.tokens + rate * elapsedMin);
		this.ledger.atMs = nowMs;
	}
}
