import {
	NodeOperationError,
	sleep,
	type ICredentialsDecrypted,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IPollFunctions,
} from 'n8n-workflow';

import type { ToolName } from '../filters';
import { numberOption } from '../filters/numberOption';
import { MAX_BODY_BYTES } from '../service/plans';
import { unsendable } from './body';
import { checkEnvelope, type ToolResult } from './envelope';
import { invalidResponseError, itemSuffix, networkError, operationError, redirectError, serviceError, tooLargeMessage } from './errors';
import { backoffMs, retryAfterMs } from './retry';
import { redact } from './secret';
import {
	DEFAULT_MAX_RETRIES,
	DEFAULT_MAX_RETRY_WAIT_MS,
	MAX_RETRIES_CEILING,
	REQUEST_TIMEOUT_MS,
	RETRYABLE_NETWORK_CODES,
	RETRYABLE_STATUSES,
	RETRY_AFTER_CUSHION_MS,
} from './tunables';
import { USER_AGENT } from './version';

export { errorDetails, operationError } from './errors';
export type { SearchJobsData, ToolResult, ToolUsage } from './envelope';
export { redact } from './secret';
export { USER_AGENT, PACKAGE_VERSION } from './version';

export const CREDENTIAL_NAME = 'jobSearchApi';

export type JobSearchContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface CallToolOptions {
	itemIndex?: number;
	/** Retries after a 429, a 500 or a dropped connection; never after other errors. */
	maxRetries?: number;
	/** The total time one call may spend waiting between attempts. */
	maxRetryWaitMs?: number;
	/** The longest one attempt may take, from sending to the last byte of the answer. */
	timeoutMs?: number;
	/**
	 * No attempt runs, is answered, or retry waits past this moment (epoch ms): a trigger's poll must
	 * end within its time, or the next poll would start while it still runs. (The trigger stops
	 * starting requests earlier, in its request budget, so a request that started is answered.)
	 */
	deadlineMs?: number;
	/**
	 * Whether a 429 is waited out and retried (the default). The trigger says no: it carries the
	 * wait to its next poll rather than spend the poll's time on it.
	 */
	waitOnRateLimit?: boolean;
	/** Awaited before every attempt, retries included: the node's pacing between requests. */
	beforeAttempt?: () => Promise<void>;
	/** Told of each wait before a retry (a 429's Retry-After or a backoff), before it is waited. */
	onWait?: (waitMs: number, status: number | undefined) => void;
	/**
	 * Told when an attempt got no answer (a dropped connection or a timeout): the service may
	 * have done, and billed, the work all the same. The node's credit cap counts it as spent.
	 */
	onUnanswered?: () => void;
}

interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

type Attempt = { kind: 'answer'; response: FullResponse } | { kind: 'no-answer'; code?: string };

interface JobSearchCredentials {
	apiKey?: string;
	baseUrl?: string;
}

type CancellableContext = JobSearchContext & { getExecutionCancelSignal?: () => AbortSignal | undefined };

function endpoint(baseUrl: string, tool: ToolName): string {
	return `${baseUrl.trim().replace(/\/+$/, '')}/v1/${tool}`;
}

/** A count or duration from a node option: anything that is not a finite number gets the default. */
function bounded(value: number | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
	return Math.min(max, Math.max(0, numberOption(value, fallback)));
}

/** The UTF-8 size of the JSON body the request would carry. */
function bodyBytes(body: IDataObject): number {
	return new TextEncoder().encode(JSON.stringify(body)).byteLength;
}

async function attempt(
	this: JobSearchContext,
	url: string,
	body: IDataObject,
	credentials: ICredentialsDecrypted,
	timeoutMs: number,
): Promise<Attempt> {
	// axios's `timeout` is reset by every byte that arrives, so a host that trickles a byte now
	// and then would hold the request forever: this deadline bounds the whole attempt.
	const deadline = AbortSignal.timeout(Math.max(1, timeoutMs));
	const cancel = (this as CancellableContext).getExecutionCancelSignal?.();
	const signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
	const request: IHttpRequestOptions = {
		method: 'POST',
		url,
		body,
		json: true,
		headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': USER_AGENT },
		timeout: timeoutMs,
		abortSignal: signal,
		// Non-2xx answers come back as data, so the 402 body and Retry-After are readable.
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// Redirects are not followed at all: axios keeps the Authorization header on a redirect to
		// a subdomain whatever n8n's cross-origin setting says, and a POST API has no reason to
		// redirect. The 3xx becomes an error that names the address to put in the Base URL.
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	// n8n-core replaces `abortSignal` with whatever the context's getExecutionCancelSignal returns
	// (undefined included) whenever the context has that method; a context that hands out the
	// combined signal keeps the deadline in force.
	const context: JobSearchContext =
		'getExecutionCancelSignal' in this ? Object.create(this, { getExecutionCancelSignal: { value: () => signal } }) : this;
	try {
		const response = (await this.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_NAME,
			request,
			{ credentialsDecrypted: credentials },
		)) as FullResponse;
		return { kind: 'answer', response };
	} catch (error) {
		// n8n's error may carry the AxiosError, and with it the request headers (the key): keep
		// only the network code and let the caller build a clean error.
		if (error instanceof NodeOperationError) {
			throw new NodeOperationError(this.getNode(), error.message, { description: error.description ?? undefined });
		}
		if (deadline.aborted) return { kind: 'no-answer', code: 'ETIMEDOUT' };
		return { kind: 'no-answer', code: networkCode(error) };
	}
}

/** n8n 2.8 drops the AxiosError's `cause` and leaves its code in `httpCode`; newer n8n keeps `cause`. */
function networkCode(error: unknown): string | undefined {
	const e = error as { cause?: { code?: unknown }; code?: unknown; httpCode?: unknown };
	for (const candidate of [e.cause?.code, e.code, e.httpCode]) {
		if (typeof candidate === 'string' && /^[A-Z][A-Z_]+$/.test(candidate)) return candidate;
	}
	return undefined;
}

/** What one failed attempt allows: a retry after `waitMs`, or only the error. */
interface Verdict {
	retryable: boolean;
	waitMs: number;
	/**
	 * What the wait counts against Max Retry Wait: the wait the service asked for, without the
	 * cushion added to it, so a 429 asking for exactly the longest allowed wait is waited out.
	 */
	countsMs?: number;
	fail(retries: number, exhausted: 'retries' | 'wait' | undefined): Error;
}

/**
 * Calls one tool of the service: POST {baseUrl}/v1/{tool}. The only HTTP in the package.
 * Retries only what a retry can fix (429 after the wait the service asks for; 500/502/503/504,
 * dropped connections and a 2xx that is not the service's answer with backoff), within the
 * retry bounds, and maps every failure to a NodeApiError that carries `error_code`, `httpCode`
 * and a `failure` cause. Whatever the host sends back, the key is cut out of it before it can
 * reach an error or an output item.
 */
export async function callTool<T = IDataObject>(
	this: JobSearchContext,
	tool: ToolName,
	body: IDataObject,
	options: CallToolOptions = {},
): Promise<ToolResult<T>> {
	const node = this.getNode();
	const credentials = (await (this.getCredentials as (type: string, itemIndex?: number) => Promise<JobSearchCredentials>)(
		CREDENTIAL_NAME,
		options.itemIndex,
	)) as JobSearchCredentials;
	const secret = typeof credentials.apiKey === 'string' ? credentials.apiKey : undefined;
	const baseUrl = redact(String(credentials.baseUrl ?? ''), secret);
	const url = endpoint(String(credentials.baseUrl ?? ''), tool);
	const maxRetries = Math.floor(bounded(options.maxRetries, DEFAULT_MAX_RETRIES, MAX_RETRIES_CEILING));
	const maxWaitMs = bounded(options.maxRetryWaitMs, DEFAULT_MAX_RETRY_WAIT_MS);
	const timeoutMs = bounded(options.timeoutMs, REQUEST_TIMEOUT_MS) || REQUEST_TIMEOUT_MS;
	// n8n's helper would read the credential again on every attempt (in n8n a database read and
	// a decryption): hand it the one just read, once per call.
	const reference = node.credentials?.[CREDENTIAL_NAME];
	const decrypted: ICredentialsDecrypted = {
		id: reference?.id ?? '',
		name: reference?.name ?? '',
		type: CREDENTIAL_NAME,
		data: credentials as ICredentialsDecrypted['data'],
	};
	const circumstances = { tool, itemIndex: options.itemIndex };

	const problem = unsendable(body);
	if (problem) {
		throw operationError(node, 'invalid_input', `${problem}${itemSuffix(options.itemIndex)}`, {
			itemIndex: options.itemIndex,
			description:
				'Nothing was sent. Give a filter text or a list of texts: map a field of the object (for example {{ $json.skills.join(", ") }}) rather than the object itself.',
		});
	}

	const size = bodyBytes(body);
	if (size > MAX_BODY_BYTES) {
		throw operationError(node, 'payload_too_large', `${tooLargeMessage(size)}${itemSuffix(options.itemIndex)}`, {
			itemIndex: options.itemIndex,
			description: 'Nothing was sent. Shorten the request: usually a very long keyword or location list in the filters.',
		});
	}

	let retries = 0;
	let waitedMs = 0;
	const deadlineMs = options.deadlineMs ?? Number.POSITIVE_INFINITY;
	for (;;) {
		await options.beforeAttempt?.();
		if (deadlineMs - Date.now() <= 0) {
			throw operationError(node, 'poll_time_spent', `The poll's time ran out before this request${itemSuffix(options.itemIndex)}`, {
				itemIndex: options.itemIndex,
				description: 'Nothing was sent. The next poll carries on from where this one stopped.',
			});
		}
		const outcome = await attempt.call(this, url, body, decrypted, Math.min(timeoutMs, deadlineMs - Date.now()));
		let verdict = judge(outcome);
		if (verdict === 'success') {
			const { response } = outcome as { response: FullResponse };
			const checked = checkEnvelope<T>(tool, response.body);
			if (checked.ok) return redact(checked.result, secret);
			verdict = invalidEnvelope(response.statusCode, checked.problem);
		}
		const { retryable, waitMs, fail } = verdict;
		if (!retryable) throw fail(retries, undefined);
		if (retries >= maxRetries || waitedMs + (verdict.countsMs ?? waitMs) > maxWaitMs || Date.now() + waitMs >= deadlineMs) {
			throw fail(retries, retries >= maxRetries ? 'retries' : 'wait');
		}
		options.onWait?.(waitMs, outcome.kind === 'answer' ? outcome.response.statusCode : undefined);
		await sleep(waitMs);
		waitedMs += verdict.countsMs ?? waitMs;
		retries++;
	}

	function invalidEnvelope(status: number, problem: string): Verdict {
		// The answer may have come from the service behind a proxy that mangled it: count it as
		// possibly billed, as an unanswered attempt.
		options.onUnanswered?.();
		return {
			retryable: true,
			waitMs: backoffMs(retries),
			fail: (r) => invalidResponseError(node, status, problem, baseUrl, { ...circumstances, retries: r }),
		};
	}

	function judge(outcome: Attempt): Verdict | 'success' {
		if (outcome.kind === 'no-answer') {
			options.onUnanswered?.();
			return {
				retryable: outcome.code !== undefined && RETRYABLE_NETWORK_CODES.includes(outcome.code),
				waitMs: backoffMs(retries),
				fail: (r) => networkError(node, outcome.code, baseUrl, { ...circumstances, retries: r }),
			};
		}
		const { statusCode: status } = outcome.response;
		if (status >= 200 && status < 300) return 'success';
		const answer = redact({ body: outcome.response.body, headers: outcome.response.headers }, secret);
		if (status >= 300 && status < 400) {
			return {
				retryable: false,
				waitMs: 0,
				fail: () => redirectError(node, status, answer.headers, baseUrl, circumstances),
			};
		}
		if (status === 429) {
			const asked = retryAfterMs(answer.headers, answer.body);
			return {
				retryable: options.waitOnRateLimit !== false,
				waitMs: asked + RETRY_AFTER_CUSHION_MS,
				countsMs: asked,
				fail: (r, exhausted) => serviceError(node, status, answer.body, { ...circumstances, retries: r, retryAfterMs: asked, exhausted }),
			};
		}
		return {
			retryable: RETRYABLE_STATUSES.includes(status),
			waitMs: backoffMs(retries),
			fail: (r) => serviceError(node, status, answer.body, { ...circumstances, retries: r }),
		};
	}
}
