import { FEEDBACK_COMMENTS, FIRST_NAMES, LAST_NAMES } from './catalog';
import type { Job } from './model';
import { intBetween, pick, seededRandom, seedFromText } from './random';

export interface ClientActivity {
	jobUid: string;
	/** Proposals received. */
	totalApplicants: number;
	/** ISO 8601 UTC with milliseconds. */
	lastBuyerActivity: string;
	totalInvitedToInterview: number;
	invitationsSent: number;
	unansweredInvites: number;
}

export interface Feedback {
	score: number;
	comment: string;
}

export interface ClientHistoryItem {
	title: string;
	freelancerName: string;
	startedAt: string;
	endedAt: string | null;
	/** USD. */
	totalCharged: number;
	feedbackToFreelancer: Feedback | null;
	feedbackToClient: Feedback | null;
}

export interface ClientHistory {
	jobUid: string;
	clientHistory: ClientHistoryItem[];
}

const HOUR_MS = 3_600_000;

/** Derived from the uid alone, so the same job always shows the same activity. */
export function clientActivityOf(job: Job, nowMs: number): ClientActivity {
	const random = seededRandom(seedFromText(job.uid, 1));
	const createdMs = Date.parse(job.createdAt);
	const invitationsSent = intBetween(random, 0, 12);
	const sinceCreated = Math.max(0, nowMs - createdMs);
	return {
		jobUid: job.uid,
		totalApplicants: intBetween(random, 0, 50),
		lastBuyerActivity: new Date(createdMs + Math.floor(random() * sinceCreated)).toISOString(),
		totalInvitedToInterview: intBetween(random, 0, 6),
		invitationsSent,
		unansweredInvites: intBetween(random, 0, invitationsSent),
	};
}

function feedback(random: () => number): Feedback | null {
	if (random() < 0.2) return null;
	return { score: Math.round((3 + random() * 2) * 10) / 10, comment: pick(random, FEEDBACK_COMMENTS) };
}

/** Past contracts of the client, as many as its stats say it hired (capped), stable per uid. */
export function clientHistoryOf(job: Job): ClientHistory {
	const random = seededRandom(seedFromText(job.uid, 2));
	const count = Math.min(job.client.stats.totalHires, 10);
	let endMs = Date.parse(job.createdAt);
	const clientHistory: ClientHistoryItem[] = Array.from({ length: count }, (_, index) => {
		const ongoing = index === 0 && random() < 0.3;
		const startedMs = endMs - intBetween(random, 24, 24 * 90) * HOUR_MS;
		const item: ClientHistoryItem = {
			title: `${pick(random, ['Help with', 'Ongoing', 'Quick fix:', 'Project:'])} ${job.skills[index % job.skills.length] ?? job.category}`,
			freelancerName: `${pick(random, FIRST_NAMES)} ${pick(random, LAST_NAMES)}`,
			startedAt: new Date(startedMs).toISOString(),
			endedAt: ongoing ? null : new Date(endMs).toISOString(),
			totalCharged: Math.round((50 + random() * 5000) * 100) / 100,
			feedbackToFreelancer: ongoing ? null : feedback(random),
			feedbackToClient: ongoing ? null : feedback(random),
		};
		endMs = startedMs - intBetween(random, 1, 24 * 30) * HOUR_MS;
		return item;
	});
	return { jobUid: job.uid, clientHistory };
}
