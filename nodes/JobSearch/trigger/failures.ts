import { errorDetails } from '../transport';
import { FALLBACK_RETRY_AFTER_MS } from '../transport/tunables';
import type { CycleOutcome, FailureKind } from './cycle';
import { TROUBLE_REPORT_AFTER_MS } from './tunables';

/**
 * What a failed request means to an alert: a 429 waits as the service asks, a fault that may pass
 * (5xx, timeout, dropped connection, an answer that is not the service's) is ridden out, and
 * anything else (key, credit, input, plan, a host that ignores the time bound) is reported now.
 */
export function classifyFailure(error: Error): FailureKind {
	const cause = (error as { failure?: { cause?: string } }).failure?.cause;
	const details = errorDetails(error);
	if (cause === 'rate-limited') return { kind: 'rate-limited', retryAfterMs: details.retryAfterMs ?? FALLBACK_RETRY_AFTER_MS };
	if (cause === 'temporarily-unavailable' || details.error_code === 'poll_time_spent') return { kind: 'passing' };
	return { kind: 'lasting' };
}

/**
 * Whether this poll fails its execution: at once for a lasting failure that left it nothing to
 * send; for passing ones only once they have lasted TROUBLE_REPORT_AFTER_MS, and then at most once
 * per that period (the execution list and the Error Workflow are not flooded).
 */
export function failureToReport(outcome: CycleOutcome, nowMs: number): Error | undefined {
	const failure = outcome.failure;
	if (!failure) return undefined;
	if (failure.kind.kind === 'lasting') return outcome.emit.length === 0 ? failure.error : undefined;
	const trouble = outcome.state.trouble;
	if (!trouble || nowMs - trouble.sinceMs < TROUBLE_REPORT_AFTER_MS) return undefined;
	if (trouble.reportedMs !== undefined && nowMs - trouble.reportedMs < TROUBLE_REPORT_AFTER_MS) return undefined;
	trouble.reportedMs = nowMs;
	return failure.error;
}

