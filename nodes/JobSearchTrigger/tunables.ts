/**
 * Every number the trigger tunes, in one place, each with the reason for its value.
 * Options on the node override the first three per workflow. DESIGN.md says how they fit together.
 */

/**
 * The index shows a job 5 to 15 minutes after its createdAt, and a straggler one refresh later:
 * up to about 30 minutes. An hour leaves room for clock skew and a slow refresh. A wider window
 * costs nothing per poll (a check is one count), only a larger first read on activation.
 */
export const DEFAULT_LATE_WINDOW_MINUTES = 60;

/** The seen set must cover the window, and a day of it is already a large static data. */
export const MAX_LATE_WINDOW_MINUTES = 24 * 60;

/** One alert execution stays easy to handle, and one poll cannot spend more than ~$5.79. */
export const DEFAULT_MAX_JOBS_PER_POLL = 1_000;

/** Rows are billed one by one, so big pages cost nothing extra; 500 jobs are about 1 MB of JSON. */
export const DEFAULT_ROWS_PER_REQUEST = 500;

/**
 * How often the late-job check runs, at most (one count: one billed row when nothing is new).
 * Late jobs are a few percent and come with an index refresh (every 5 to 15 minutes), so checking
 * every quarter hour keeps "Every Minute" as cheap as hourly polling and delays only those few.
 */
export const CHECK_EVERY_MS = 15 * 60_000;

/**
 * Rows a late-job check may always spend to finish, whatever Max Jobs per Poll says: one count, a
 * dozen halvings of a window of thousands, a small read. A due check gets them at the start of the
 * poll. Without it a tiny budget would pay for the same count on every poll and never finish, or
 * spend every row on a gap and never start one.
 */
export const CHECK_MIN_ROWS = 20;

/** A window part with this few matches is read whole rather than halved again: reading is cheaper. */
export const LEAF_ROWS = 3;

/**
 * The silent first read of the Late Window is not bound by Max Jobs per Poll (a job left unread
 * there could not be told from a late one later), only by this, one service call's maximum.
 */
export const LEARN_MAX_ROWS = 10_000;

/** n8n 2.8 has no getPollBudgetMs: a minute is well inside its poll interval floor. */
export const FALLBACK_POLL_BUDGET_MS = 60_000;

/** Start no new request after this share of the budget, so the last one and the commit fit in it. */
export const POLL_BUDGET_SHARE = 0.8;

/**
 * Seen uids kept at most. Only jobs inside the Late Window (plus the time since the last check)
 * are kept, a few hundred at the busiest; the cap only bounds the static data (about 40 bytes a
 * uid) if something goes wrong.
 */
export const MAX_SEEN_UIDS = 5_000;

/** "Fetch Test Event" shows this many recent jobs: enough to map fields, cheap to pay for. */
export const MANUAL_SAMPLE_SIZE = 5;
