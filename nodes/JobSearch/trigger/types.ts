import type { FetchPage, Reader, ReadJob } from '../paging/reader';
import type { SearchState } from './state';

/** What the user chose between freshness and cost (the Delivery option). */
export type Delivery = 'asSoonAsSeen' | 'lowestCost';

export interface CycleSettings {
	/** How long after its createdAt a job may still show up in the index for the first time. */
	lateWindowMs: number;
	/** First poll only: send the jobs of this many ms before now. Unset: send nothing, just learn them. */
	firstPollLookbackMs?: number;
	/** New jobs a poll reads at most (all searches together), and as many rows again for its other looks. */
	maxJobsPerPoll: number;
	/** How long this poll may take. */
	pollTimeMs: number;
	/** The shortest time n8n may leave between two polls (Poll Times). */
	intervalMs: number;
	/** How long before this poll, less a late start, Poll Times last named a moment: a longer gap since the last poll is a pause (intervalMs if unset). */
	longestIntervalMs?: number;
	requestsPerMinute: number;
	delivery?: Delivery;
	/** n8n 2.41 keeps nothing of the activation poll: it ran within this many ms before a search's first kept poll. */
	unkeptActivationWithinMs?: number;
	/** Overridable for tests only. */
	maxSeenUids?: number;
}

/** What a failed request means for the trigger: wait as asked, ride it out, or report it now (`ofCredential`: the key's, its credit's or the Base URL's, whatever the search). */
export type FailureKind = { kind: 'rate-limited'; retryAfterMs: number } | { kind: 'passing' } | { kind: 'lasting'; ofCredential?: boolean };

export interface CycleDeps {
	/** One search's request: its filters with the window and limit the cycle asks for. */
	fetchPage: FetchPage;
	now: () => number;
	sleep: (ms: number) => Promise<void>;
	classify: (error: Error) => FailureKind;
}

/** What one search's reading in one poll came to. */
export interface SearchResult {
	state: SearchState;
	reader: Reader;
	/** New jobs to send, as read. */
	fresh: ReadJob[];
	/** Some page of this search came through. */
	came: boolean;
	/** It read its Late Window for the first time. */
	firstPoll: boolean;
	/** Its activation read is not finished: the rest follows on the next polls. */
	learning: boolean;
	/** New jobs the index showed after newer ones had been read. */
	late: number;
	/** Known jobs found at a newer createdAt (posted again): not sent again. */
	reposts: number;
	/** Uids the cap forgot above what was read to its end, where unread jobs are lost (0 unless something is badly off). */
	capped: number;
}
