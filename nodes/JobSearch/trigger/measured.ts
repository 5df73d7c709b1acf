/**
 * What `npm run bench` measured for the trigger with its defaults (rows paid per delivered job, over
 * three simulated days at Poll Times 1, 5, 15 and 60 minutes, the worst of them). The node's notice
 * quotes these numbers; the bench prints whether they still hold.
 */
export const MEASURED = {
	/** An index that shows jobs in batches (as the public deployment describes it), up to 150 matching postings an hour. */
	batchRowsPerJob: 1.26,
	/** An index that shows each job 1 to 16 minutes after it was posted, independently. */
	outOfOrderRowsPerJob: 1.2,
	/** The busiest search those two figures hold for. */
	upToPostingsPerHour: 150,
	/**
	 * A busy search (1,500 an hour) or a bulk import, whose posting times are whole seconds: each
	 * part is read once more after the Late Window, so what is sent at once is paid twice (at most).
	 */
	busyRowsPerJob: 1.5,
} as const;
