/**
 * What `npm run bench` measured for the trigger with its defaults (rows paid per delivered job over
 * three simulated days at Poll Times 1, 5, 15 and 60 minutes, the worst of them). The node's notice
 * quotes them in dollars; the bench prints whether they still hold.
 */
export const MEASURED = {
	/** Delivery As Soon As Seen, searches of up to `upToPostingsPerHour` new matching jobs an hour. */
	soonRowsPerJob: 1.3,
	upToPostingsPerHour: 150,
	/** As Soon As Seen on busier searches, bulk imports and posting times in whole seconds or minutes. */
	busyRowsPerJob: 2.0,
	/** Delivery Lowest Cost, on every search. */
	lowestCostRowsPerJob: 1.15,
} as const;
