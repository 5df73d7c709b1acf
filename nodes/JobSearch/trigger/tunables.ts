/**
 * Every number the trigger tunes, in one place, each with the reason for its value. Options on the
 * node override the first four per workflow. DESIGN.md says how they fit together; bench/README.md
 * what each rule buys.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * The index shows a job 5 to 15 minutes after its createdAt, and a straggler one refresh later:
 * up to about 30 minutes. An hour leaves room for a slow refresh.
 */
export const DEFAULT_LATE_WINDOW_MINUTES = 60;

/** An hour of a busy search (1,500 postings) fits in one poll every hour; a poll reads at most this many new jobs (~$14.48). */
export const DEFAULT_MAX_JOBS_PER_POLL = 2_500;

/** Two alert workflows and a Job Search node fit on a Free key (10 requests a minute). */
export const DEFAULT_REQUESTS_PER_MINUTE = 5;

/** Rows are billed one by one, so big pages cost nothing extra; 500 jobs are about 1 MB of JSON. */
export const ROWS_PER_REQUEST = 500;

/** The bucket holds this many minutes of requests (or a poll interval's, if longer): a long pause does not end in a burst. */
export const BUCKET_MINUTES = 15;

/**
 * A poll that meets a 429 lowers the trigger's own rate to this share (other workflows use the key
 * too), never below three such steps, and the rate comes back by a tenth a minute.
 */
export const RATE_LIMITED_SHARE = 0.75;
export const RATE_RECOVERY_PER_MINUTE = 0.1;

/**
 * A fault that may pass (5xx, timeout) is asked again this many times in the poll, each time a
 * request of the budget; then requests pause this long, doubling while it lasts, up to ten times.
 */
export const PASSING_RETRIES = 2;
export const FAULT_PAUSE_MS = 30_000;

/**
 * Passing faults fail no execution until they have lasted this long (then at most once per this
 * long): a 20-minute outage of the service or a busy shared key is ridden out quietly.
 */
export const TROUBLE_REPORT_AFTER_MS = 30 * MINUTE_MS;

/**
 * How far the index's clock may be believed apart from n8n's: before the index has shown a job it
 * is taken to be this far behind (no Late Window ends early), and a createdAt further ahead than
 * this is no sign of skew (one mis-dated job would end every Late Window early). It is the
 * index's usual delay too: what an activation that read late sends.
 */
export const INDEX_CLOCK_DOUBT_MS = 15 * MINUTE_MS;

/** An activation read whose first page came later than this cannot tell a job shown since activation from an old one. */
export const ACTIVATION_READ_GRACE_MS = 10_000;

/**
 * What the trigger learns is kept this long: the index's clock (from the head reads), that it
 * makes ties or rounds the bounds (late ties come in bunches), and a uid after it was settled (a
 * repost within it is not sent again).
 */
export const MEMORY_MS = 24 * HOUR_MS;

/**
 * The ages at which each stretch of the window is asked again for jobs the index showed late
 * (with the requests left after the head and the final look): a job shown up to 40 minutes late
 * comes within about 12 minutes of showing. Each age costs a request per known job an hour.
 */
export const YOUNG_LOOK_AGES_MS = [8, 16, 28, 40].map((m) => m * MINUTE_MS);

/** A look waits until this much of the window is due, so the newest stretch is asked once per step, not once a poll. */
export const LOOK_STEP_MS = 5 * MINUTE_MS;

/** Where the requests cannot ask every stretch, a final look that lags this far reads the part whole instead (rows for requests). */
export const FINAL_LAG_MAX_MS = 20 * MINUTE_MS;

/** What had its final look stretch by stretch is counted this often: a late job in a known job's millisecond is found within about two hours. */
export const COUNT_EVERY_MS = HOUR_MS;

/** A whole read or a count covers at most this many known jobs: one page with room for late ones, and a total below the rounded 1,000. */
export const PART_MAX_KNOWN = ROWS_PER_REQUEST - 100;

/** Uids kept at most: a day of a busy search. */
export const MAX_SEEN_UIDS = 10_000;

/**
 * Start no new request after this share of the poll's time, so the last one and the commit fit in
 * it; where n8n does not say how long a poll may take (2.8), it is this share of the shortest
 * interval, so the next poll finds this one done.
 */
export const POLL_TIME_SHARE = 0.8;

/** A poll's lock outlives the poll's time by this much: its last request and the hand-over of its items still fit. */
export const LOCK_GRACE_MS = 60_000;

/** A scheduled poll may start this much after its moment (a busy worker): an activation n8n did not keep is taken to be this much earlier still. */
export const SCHEDULED_POLL_LATE_MS = 5 * MINUTE_MS;

/** "Fetch Test Event" shows this many recent jobs of each search: enough to map fields, cheap to pay for. */
export const MANUAL_SAMPLE_SIZE = 5;
