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
 * How often every stretch of the Late Window between jobs already read is asked again. A job the
 * index shows late is sent at most this long after the first poll that could have seen it (the
 * issue's promise is 16 minutes); asking a stretch where nothing appeared costs a request, no row.
 */
export const SWEEP_EVERY_MS = 14 * 60_000;

/**
 * A quick check (one count of the recent stretch, one row) runs once the sweeps' pace says this
 * many late jobs are likely to be waiting: on an index that shows jobs out of order that is every
 * few minutes, and it sends most of them on the first poll that can; where late jobs are rare it
 * almost never runs, so it costs nothing there.
 */
export const QUICK_CHECK_AT_EXPECTED_LATE = 1;

/**
 * The most stretches a sweep asks one by one: the jobs a Late Window and a sweep period hold at
 * about 45 matching postings an hour. Over 14 minutes that is at most about 4 requests a minute,
 * inside the Free plan's 10. A busier window is asked in groups, each counted once (a row).
 */
export const MAX_SWEEP_REQUESTS = 60;

/**
 * When a count finds more jobs than were read, this many of the newest open stretches are asked
 * first (free, and late jobs are mostly recent); a difference left after them is found by halving
 * with counts, a few rows, rather than by one request per stretch.
 */
export const STRETCHES_BEFORE_HALVING = 6;

/**
 * What was swept for good is counted (one row) and settled once it spans this long, even on an
 * index that shows no two jobs in one millisecond: a rare tie is then found within about two
 * hours, the uids kept stay a couple of hours' worth, and an alert with nothing new costs a row
 * an hour.
 */
export const COUNT_AT_LEAST_EVERY_MS = 60 * 60_000;

/**
 * Rows the count that ends a sweep may always spend, whatever Max Jobs per Poll says: one count,
 * a dozen halvings of a window of thousands, a small read. Without it a tiny budget could pay for
 * the same count on every poll and never settle anything.
 */
export const CHECK_MIN_ROWS = 20;

/** A window part with this few matches is read whole rather than halved again: reading is cheaper. */
export const LEAF_ROWS = 3;

/**
 * The silent first read of the Late Window is not bound by Max Jobs per Poll (a job left unread
 * there could not be told from a late one later), only by this, one service call's maximum.
 */
export const LEARN_MAX_ROWS = 10_000;

/**
 * n8n 2.8 has no getPollBudgetMs, so a poll's time is a share of the shortest interval between two
 * polls (Poll Times): the next poll then finds this one done. At Every Minute that is 48 s.
 */
export const POLL_BUDGET_OF_INTERVAL = 0.8;

/** Even a poll every minute gets this long: one request and one short retry fit in it. */
export const MIN_POLL_BUDGET_MS = 30_000;

/** However far apart polls are, one may not run longer: a 429 storm then ends the poll, not the day. */
export const MAX_POLL_BUDGET_MS = 15 * 60_000;

/**
 * A poll's guard outlives the poll's budget by this much before another poll may take it over:
 * the poll's last request and the hand-over of its items still fit.
 */
export const GUARD_GRACE_MS = 60_000;

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
