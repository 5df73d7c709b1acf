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
import { networkError, serviceError } from './errors';
import { backoffMs, retryAfterMs } from './retry';
import {
	DEFAULT_MAX_RETRIES,
	DEFAULT_MAX_RETRY_WAIT_MS,
	NEVER_RETRY_STATUSES,
	REQUEST_TIMEOUT_MS,
	RETRYABLE_NETWORK_CODES,
	RETRY_AFTER_CUSHION_MS,
} from './tunables';
import { USER_AGENT } from './version';

export { errorDetails, operationError, type ServiceErrorDetails, type FailureCause } from './errors';
export { USER_AGENT, PACKAGE_VERSION } from './version';

export const CREDENTIAL_NAME = 'jobSearchApi';

export type JobSearchContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface CallToolOptions {
	itemIndex?: number;
	/** Retries after a 429, a 500 or a dropped connection; never after other errors. */
	maxRetries?: number;
	/** The total time one call may spend waiting between attempts. */
	maxRetryWaitMs?: number;
	/** Awaited before every attempt, retries included: the node's pacing between requests. */
	beforeAttempt?: () => Promise<void>;
	/**
	 * Told when an attempt got no answer (a dropped connection or a timeout): the service may
	 * have done, and billed, the work all the same. The node's credit cap counts it as spent.
	 */
	onUnanswered?: () => void;
}

export interface ToolUsage {
	consumedMicrocents: number;
	remainingMicrocents: number;
}

export interface ToolResult<T = IDataObject> {
	data: T;
	usage: ToolUsage;
}

interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

type Attempt = { kind: 'answer'; response: FullResponse } | { kind: 'no-answer'; code?: string };

interface JobSearchCredentials {
	baseUrl?: string;
}

function endpoint(baseUrl: string, tool: ToolName): string {
	return `${baseUrl.trim().replace(/\/+$/, '')}/v1/${tool}`;
}

async function attempt(
	this: JobSearchContext,
	url: string,
	body: IDataObject,
	credentials: ICredentialsDecrypted,
): Promise<Attempt> {
	const request: IHttpRequestOptions = {
		method: 'POST',
		url,
		body,
		json: true,
		headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': USER_AGENT },
		timeout: REQUEST_TIMEOUT_MS,
		// Non-2xx answers come back as data, so the 402 body and Retry-After are readable.
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// n8n follows redirects with the Authorization header by default, to any host: a Base
		// URL that redirects elsewhere must not hand the key to that host.
		sendCredentialsOnCrossOriginRedirect: false,
	};
	try {
		const response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
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

function isSuccess(response: FullResponse): boolean {
	return response.statusCode >= 200 && response.statusCode < 300;
}

function toResult<T>(body: unknown): ToolResult<T> {
	const envelope = (typeof body === 'object' && body !== null ? body : {}) as {
		data?: T;
		usage?: Partial<ToolUsage>;
	};
	return {
		data: (envelope.data ?? {}) as T,
		usage: {
			consumedMicrocents: Number(envelope.usage?.consumedMicrocents ?? 0),
			remainingMicrocents: Number(envelope.usage?.remainingMicrocents ?? 0),
		},
	};
}

/**
 * Calls one tool of the service: POST {baseUrl}/v1/{tool}. The only HTTP in the package.
 * Retries only what a retry can fix (429 after the wait the service asks for; 5xx and dropped
 * connections with backoff), within the retry bounds, and maps every failure to a NodeApiError
 * that carries `error_code`, `httpCode` and a `failure` cause and never the key.
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
	const baseUrl = String(credentials.baseUrl ?? '');
	const url = endpoint(baseUrl, tool);
	// n8n's helper would read the credential again on every attempt (in n8n a database read and
	// a decryption): hand it the one just read, once per call.
	const reference = node.credentials?.[CREDENTIAL_NAME];
	const decrypted: ICredentialsDecrypted = {
		id: reference?.id ?? '',
		name: reference?.name ?? '',
		type: CREDENTIAL_NAME,
		data: credentials as ICredentialsDecrypted['data'],
	};
	const maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES);
	const maxWaitMs = Math.max(0, options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS);
	const circumstances = { tool, itemIndex: options.itemIndex };

	let retries = 0;
	let waitedMs = 0;
	for (;;) {
		await options.beforeAttempt?.();
		const outcome = await attempt.call(this, url, body, decrypted);

		if (outcome.kind === 'no-answer') {
			options.onUnanswered?.();
			const retryable = outcome.code !== undefined && RETRYABLE_NETWORK_CODES.includes(outcome.code);
			const wait = backoffMs(retries);
			if (!retryable || retries >= maxRetries || waitedMs + wait > maxWaitMs) {
				throw networkError(node, outcome.code, baseUrl, { ...circumstances, retries });
			}
			await sleep(wait);
			waitedMs += wait;
			retries++;
			continue;
		}

		const { response } = outcome;
		if (isSuccess(response)) return toResult<T>(response.body);

		const status = response.statusCode;
		if (status === 429) {
			const asked = retryAfterMs(response.headers, response.body);
			const wait = asked + RETRY_AFTER_CUSHION_MS;
			if (retries >= maxRetries || waitedMs + wait > maxWaitMs) {
				const exhausted = retries >= maxRetries ? 'retries' : 'wait';
				throw serviceError(node, status, response.body, { ...circumstances, retries, retryAfterMs: asked, exhausted });
			}
			await sleep(wait);
			waitedMs += wait;
			retries++;
			continue;
		}

		if (status >= 500 && !NEVER_RETRY_STATUSES.includes(status)) {
			const wait = backoffMs(retries);
			if (retries < maxRetries && waitedMs + wait <= maxWaitMs) {
				await sleep(wait);
				waitedMs += wait;
				retries++;
				continue;
			}
		}
		throw serviceError(node, status, response.body, { ...circumstances, retries });
	}
}
