/**
 * Every number the trigger tunes, in one place, each with the reason for its value.
 * Options on the node override the first four per workflow.
 */

/** The index shows a job 5 to 15 minutes after its createdAt; 5 more minutes absorb clock skew. */
export const DEFAULT_OVERLAP_MINUTES = 20;

/** A day of re-reading per poll would cost more than any lag justifies. */
export const MAX_OVERLAP_MINUTES = 24 * 60;

/** One alert execution stays easy to handle, and one poll cannot spend more than ~$5.79. */
export const DEFAULT_MAX_JOBS_PER_POLL = 1_000;

/** Rows are billed one by one, so big pages cost nothing extra; 500 jobs are about 1 MB of JSON. */
export const DEFAULT_ROWS_PER_REQUEST = 500;

/** n8n 2.8 has no getPollBudgetMs: a minute is well inside its poll interval floor. */
export const FALLBACK_POLL_BUDGET_MS = 60_000;

/** Start no new request after this share of the budget, so the last one and the commit fit in it. */
export const POLL_BUDGET_SHARE = 0.8;

/**
 * Seen uids kept at most. Only jobs inside the overlap window are kept, a few hundred at the
 * busiest; the cap only bounds the static data (about 40 bytes a uid) if something goes wrong.
 */
export const MAX_SEEN_UIDS = 5_000;

/** "Fetch Test Event" shows this many recent jobs: enough to map fields, cheap to pay for. */
export const MANUAL_SAMPLE_SIZE = 5;
