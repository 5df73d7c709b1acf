/**
 * Every number the trigger tunes, in one place, each with the reason for its value.
 * Options on the node override the defaults per workflow. DESIGN.md says how they fit together.
 */

import { SERVICE_PLANS } from '../service/plans';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * The index shows a job 5 to 15 minutes after its createdAt, and a straggler one refresh later:
 * up to about 30 minutes. An hour leaves room for a slow refresh; clock skew between n8n and the
 * index is measured (see INDEX_LAG_GUESS_MS), not guessed into this.
 */
export const DEFAULT_LATE_WINDOW_MINUTES = 60;

/** Every uid of the window is kept, and a day of it is already a large static data. */
export const MAX_LATE_WINDOW_MINUTES = 24 * 60;

/**
 * An hour of a busy search (1,500 matching postings) fits in one poll every hour, with room, and
 * one execution stays easy to handle. A poll reads at most this many new jobs (~$14.48) and as
 * many rows again for its late-job looks.
 */
export const DEFAULT_MAX_JOBS_PER_POLL = 2_500;

/** Rows are billed one by one, so big pages cost nothing extra; 500 jobs are about 1 MB of JSON. */
export const DEFAULT_ROWS_PER_REQUEST = 500;

/**
 * Requests one trigger spends a minute on average: two alert workflows and a Job Search node
 * fit on a Free key (10 a minute). A Pro key allows 60.
 */
export const DEFAULT_REQUESTS_PER_MINUTE = 5;

/** However the options are set, no 60 seconds see more requests than a Free key's whole limit. */
export const WINDOW_REQUEST_CAP = SERVICE_PLANS.free.requestsPerMinute;

/** The service counts requests in a sliding window of one minute (docs/service.md#limits). */
export const RATE_WINDOW_MS = MINUTE_MS;

/**
 * The bucket holds this many minutes of requests, or the minutes between two polls if more: a
 * poll may spend what the minutes since the last one earned (paced by the rate window), and a long
 * pause does not end in a burst.
 */
export const BUCKET_MINUTES = 15;

/**
 * A poll that meets a 429 lowers the trigger's own rate to this share: other workflows use the
 * key too, so it yields some of it to them, without collapsing on a key that is merely busy.
 */
export const RATE_LIMITED_SHARE = 0.75;

/** Never slower than this share of Requests per Minute: a head read and a final look every minute or two. */
export const RATE_FLOOR_SHARE = 0.25;

/** After a 429 the rate comes back by this share a minute: full speed again within about ten minutes. */
export const RATE_RECOVERY_PER_MINUTE = 0.1;

/** A fault that may pass (5xx, timeout, dropped connection) pauses requests this long, doubling while it lasts. */
export const FAULT_PAUSE_MS = 30_000;
export const MAX_FAULT_PAUSE_MS = 5 * MINUTE_MS;

/**
 * Passing faults fail no execution until they have lasted this long: a short outage or a busy
 * shared key is ridden out quietly, a real one is reported (and then at most once per period).
 */
export const TROUBLE_REPORT_AFTER_MS = 15 * MINUTE_MS;

/**
 * ...and over this many polls in a row: two unlucky polls an hour apart on a busy shared key are
 * not an outage.
 */
export const TROUBLE_REPORT_AFTER_POLLS = 3;

/**
 * Before the index has shown a fresh job, its clock is taken to be this far behind n8n's: a Late
 * Window then never ends early on a host whose clock runs ahead. Measured once jobs are read.
 */
export const INDEX_LAG_GUESS_MS = 15 * MINUTE_MS;

/**
 * An activation read whose first page came later than this after the activation (a 429 waited
 * out, a turn of the rate window) cannot tell a job the index showed at activation from one it
 * showed since: it sends the jobs of the index's usual delay before the activation. A first request
 * and its answer take well under this.
 */
export const ACTIVATION_READ_GRACE_MS = 10_000;

/** A createdAt further ahead of n8n's clock than this is not believed as a sign of skew. */
export const MAX_INDEX_LEAD_MS = 15 * MINUTE_MS;

/** How many head reads, and over how long, the clock offset is taken from. */
export const OFFSET_SAMPLES = 12;
export const OFFSET_MAX_AGE_MS = 24 * HOUR_MS;

/**
 * How often every stretch of the unsettled window is asked again (or, where requests are scarce,
 * counted). A pass goes up from the oldest stretch and follows the head, so each stretch is asked
 * again this long after it was last asked: a job the index shows late is sent within this long
 * plus a poll, 15 minutes at Every Minute. A poll every few minutes gets a shorter period (see passEveryMs).
 */
export const PASS_EVERY_MS = 14 * MINUTE_MS;

/** A job the index shows late is sent within this long of the first poll that could see it, poll interval included. */
export const FRESHNESS_MS = 15 * MINUTE_MS;

/** A pass period never shorter than this: the passes of a poll every ten minutes do not pile up. */
export const MIN_PASS_EVERY_MS = 4 * MINUTE_MS;

/**
 * A pass asks stretch by stretch only if that takes at most this share of the requests its period
 * allows: the head reads and the final looks keep their room.
 */
export const SWEEP_SHARE = 0.9;


/**
 * Where requests are scarce, a final look asks its stretches one by one while the poll has the
 * requests; it reads the part whole (paying again for the jobs it holds) only once the part has
 * waited this long past the Late Window, so the uids kept stay bounded.
 */
export const FINAL_LAG_MAX_MS = 20 * MINUTE_MS;

/**
 * Where the index makes ties, what the Late Window has passed is read whole (a row a job) in one
 * request about this often, rather than in a request every poll.
 */
export const TIES_FINAL_EVERY_MS = 10 * MINUTE_MS;

/**
 * Where requests are scarce, each part of the window is counted once at this age: by then most
 * jobs an index shows late have shown (5 to 15 minutes after posting, out-of-order indexes up to
 * 16), and whatever shows later is found by the final look.
 */
export const YOUNG_CHECK_AGE_MS = 20 * MINUTE_MS;

/**
 * That count waits until it covers at least this long a stretch of time and this many jobs (or the
 * longest step): a row buys the check of many jobs, a few rows an hour on a busy search, and a
 * quiet one does not pay a row every few minutes for a handful of jobs.
 */
export const YOUNG_CHECK_STEP_MS = 5 * MINUTE_MS;
export const YOUNG_CHECK_MIN_JOBS = 25;
export const YOUNG_CHECK_LONGEST_STEP_MS = 30 * MINUTE_MS;

/**
 * A count covers at most this many known jobs: large totals are reported rounded (at least), so a
 * count of a busier part could not tell a late job from none.
 */
export const COUNT_MAX_KNOWN = 900;

/**
 * Requests a poll keeps from the final looks for the count that settles, once unsettled uids fill
 * SETTLE_URGENT_SHARE of the uid cap: one count and one halving step, so the floor moves on by a
 * part a poll however scarce requests are.
 */
export const SETTLE_RESERVED_REQUESTS = 2;

/**
 * The settling count usually finds requests left after the final looks, or their whole reads
 * settle by themselves; requests kept for it sooner than half the cap would cost those reads rows.
 */
export const SETTLE_URGENT_SHARE = 0.5;

/**
 * Where the index makes ties, the head reads this many rows at most: the rest is left for its final
 * look, a whole read that would buy it again (a bulk import, a busy search polled hourly). A page.
 */
export const DEFER_AFTER_ROWS = 500;

/**
 * Where the index makes ties, every row the head buys is bought again by the final look, so the
 * head buys at most this many rows per new job, and this many an hour besides (up to
 * DEFER_AFTER_ROWS at once), and leaves the rest for the final look, which buys it once: rows paid
 * come before freshness. A search of up to about 150 matches an hour is read whole at its head; a
 * busy one (1,500) pays under 1.5 rows a job and sends about three in ten of its jobs at once, the rest
 * with their final look.
 */
export const AHEAD_ROWS_PER_JOB = 0.25;
export const AHEAD_ROWS_PER_HOUR = 100;

/**
 * Elsewhere a job the head reads is bought once, and its final look asks the stretches beside it,
 * a request each. Where the polls' time leaves the final looks fewer requests than this share of
 * the stretches an hour's new jobs bring (n8n 2.41's 36-second polls every 15 minutes or longer: 4
 * requests a poll), reading every job costs more than 1.3 rows a job: the final looks read whole
 * what they cannot ask, buying it again. There the head reads ahead only as many jobs as they can
 * ask, and leaves the rest for one whole read once the Late Window has passed over it.
 */
export const AHEAD_ALL_ASKABLE_SHARE = 0.7;

/**
 * Rows per new job that the counts which only make late jobs come sooner (the young window's, where
 * requests are scarce or the index makes ties) may spend beyond the rows of the jobs they find:
 * rows paid come before freshness, and the final looks find every job anyway. A new search starts
 * with FRESHNESS_ROWS_START and saves up to FRESHNESS_ROWS_MAX.
 */
export const FRESHNESS_ROWS_PER_JOB = 0.05;
export const FRESHNESS_ROWS_START = 20;
export const FRESHNESS_ROWS_MAX = 200;

/**
 * What was finally looked at is counted (one row) and settled once it spans this long, even on an
 * index that shows no two jobs in one millisecond: a rare late tie is then found within about two
 * hours, and an alert with nothing new costs a row an hour.
 */
export const COUNT_AT_LEAST_EVERY_MS = HOUR_MS;

/**
 * After a count finds more jobs than are known, this many of its newest open stretches are asked
 * first (free, and late jobs are mostly recent) when requests are plenty, fewer when scarce; a
 * difference left after them is found by halving with counts.
 */
export const LOCATE_STRETCHES = 8;

/** A part with this few matches is read whole rather than halved again: reading is cheaper. */
export const LEAF_ROWS = 3;

/**
 * Rows a count and its halving may always spend, whatever Max Jobs per Poll says: one count, a
 * dozen halvings of a window of thousands, a small read. Without it a tiny budget could pay for
 * the same count on every poll and never settle anything.
 */
export const CHECK_MIN_ROWS = 20;

/**
 * The silent first read of the Late Window is not bound by Max Jobs per Poll (a job left unread
 * there could not be told from a late one later), only by this, one service call's maximum.
 */
export const LEARN_MAX_ROWS = 10_000;

/**
 * Uids kept at most. Those inside the window are needed to tell new jobs from known ones; older
 * ones are kept a while longer so that a job posted again under its uid is not sent again.
 */
export const MAX_SEEN_UIDS = 10_000;

/** How long a uid is remembered after its latest createdAt has been settled: a repost within it is not sent again. */
export const REPOST_MEMORY_MS = 24 * HOUR_MS;

/**
 * n8n 2.8 has no getPollBudgetMs, so a poll's time is a share of the shortest interval between two
 * polls (Poll Times): the next poll then finds this one done. At Every Minute that is 48 s.
 */
export const POLL_TIME_OF_INTERVAL = 0.8;

/** Even a poll every minute gets this long: one request and one short retry fit in it. */
export const MIN_POLL_TIME_MS = 30_000;

/** However far apart polls are, one may not run longer: a 429 storm then ends the poll, not the day. */
export const MAX_POLL_TIME_MS = 15 * MINUTE_MS;

/**
 * A poll's lock outlives the poll's time by this much before another poll may take it over:
 * the poll's last request and the hand-over of its items still fit.
 */
export const LOCK_GRACE_MS = 60_000;

/**
 * What n8n 2.41 gives a poll it does not fence (its default): a shorter budget means the durable
 * scheduler runs the poll, which keeps nothing of the poll that activated the trigger.
 */
export const UNFENCED_POLL_BUDGET_MS = 5 * MINUTE_MS;

/**
 * A scheduled poll may start this much after its moment (a busy worker, a queue): the activation
 * n8n did not keep is taken to be this much earlier still, so no job posted after it is lost.
 */
export const SCHEDULED_POLL_LATE_MS = 5 * MINUTE_MS;

/** Start no new request after this share of the poll's time, so the last one and the commit fit in it. */
export const POLL_TIME_SHARE = 0.8;

/** "Fetch Test Event" shows this many recent jobs: enough to map fields, cheap to pay for. */
export const MANUAL_SAMPLE_SIZE = 5;
