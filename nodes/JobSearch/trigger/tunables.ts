// Every number the trigger tunes that the user cannot set, each with the reason for its value (DESIGN.md: how they fit;
// bench/README.md: what each buys). The defaults of the options the user can set are in their fields (description.ts).

/** Units, not tunables: a whole minute is also the coarsest rounding of the time bounds the trigger makes room for. */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

/** Rows are billed one by one, so big pages cost nothing extra; 500 jobs are about 1 MB of JSON. */
export const ROWS_PER_REQUEST = 500;

/** The bucket holds this many minutes of requests (or a poll interval's, if longer): a long pause does not end in a burst. */
export const BUCKET_MINUTES = 15;

/** A poll that meets a 429 lowers the trigger's rate to this share (other workflows use the key too), at most three times running. */
export const RATE_LIMITED_SHARE = 0.75;

/** The rate comes back by this share a minute after a 429: a key that got busy for a moment is not slowed for good. */
export const RATE_RECOVERY_PER_MINUTE = 0.1;

/** A passing fault (5xx, timeout) is asked again this many times in the poll, each a request of the budget. */
export const PASSING_RETRIES = 2;

/** Then requests pause this long, or half as long as the fault has lasted, up to ten times this: a service that is down is not hammered. */
export const FAULT_PAUSE_MS = 30_000;

/** Passing faults fail no execution before this long (then once per this long): a 20-minute outage is ridden out quietly. */
export const TROUBLE_REPORT_AFTER_MS = 30 * MINUTE_MS;

/** The index's clock is believed this far from n8n's (no further: one mis-dated job would end every Late Window early); also its usual delay. */
export const INDEX_CLOCK_DOUBT_MS = 15 * MINUTE_MS;

/** An activation read whose first page came later than this cannot tell a job shown since activation from an old one. */
export const ACTIVATION_READ_GRACE_MS = 10_000;

/** The index's clock, its ties and rounding (late ties come in bunches) and settled uids (a repost is recognised) are kept this long. */
export const MEMORY_MS = 24 * HOUR_MS;

/** Each stretch is asked again at these ages: a job shown up to 40 minutes late comes within about 12 minutes of showing. */
export const YOUNG_LOOK_AGES_MS = [8, 16, 28, 40].map((m) => m * MINUTE_MS);

/** Where the known jobs above the floor would share this many milliseconds by chance (a bulk import), final looks read whole: below it a late tie is left to the count, which a removal can blind (at 0.05 an import of 300 lost one); at 0.01 a search of 150 an hour pays up to 0.06 rows a job more. */
export const CHANCE_TIES_WHOLE = 0.02;

/** An As Soon As Seen look waits until this much is due, so the newest stretch is asked once per step, not once a poll; Lowest Cost looks at the index's clock as often. */
export const LOOK_STEP_MS = 5 * MINUTE_MS;

/** Where the requests cannot ask every stretch, a final look that lags this far reads the part whole instead (rows for requests). */
export const FINAL_LAG_MAX_MS = 20 * MINUTE_MS;

/** What had its final look stretch by stretch is counted this often: a late job in a known job's millisecond is found within about two hours (a quiet search's, a day). */
export const COUNT_EVERY_MS = HOUR_MS;

/** A count pays one row, so it waits until its part holds this many known jobs (a day at most): a quiet search's costs a twentieth of a row a job. */
export const COUNT_MIN_KNOWN = 20;

/** Uids kept at most: a day of a busy search. */
export const MAX_SEEN_UIDS = 10_000;

/** No new request after this share of the poll's time (or of the shortest interval, n8n 2.8): the last one and the commit still fit. */
export const POLL_TIME_SHARE = 0.8;

/** A poll's lock outlives the poll's time by this much: its last request and the hand-over of its items still fit. */
export const LOCK_GRACE_MS = 60_000;

/** A scheduled poll may start this much after its moment (a busy worker): an activation n8n did not keep is taken to be this much earlier still; a longer gap is a pause in the polls. */
export const SCHEDULED_POLL_LATE_MS = 5 * MINUTE_MS;
