/** Rows paid per job `npm run bench` measured with the defaults (worst of Poll Times 1 to 60 minutes): the notice quotes them, the bench checks them. */
export const MEASURED = {
	/** Delivery As Soon As Seen, searches of up to `upToPostingsPerHour` new matching jobs an hour. */
	soonRowsPerJob: 1.3,
	upToPostingsPerHour: 150,
	/** As Soon As Seen on busier searches, bulk imports and posting times in whole seconds or minutes. */
	busyRowsPerJob: 2.01,
	/** Delivery Lowest Cost, on every search (its look at the index's clock included), two new jobs an hour or more. */
	lowestCostRowsPerJob: 1.15,
} as const;
