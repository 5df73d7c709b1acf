import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

import { toolDefinitions, type ToolName } from '../filters';
import { formatUsd } from '../service/pricing';
import { MAX_BODY_LABEL, SERVICE_PLANS, plansWithPremiumAddon } from '../service/plans';
import { headerValue } from './retry';
import { RETRYABLE_STATUSES } from './tunables';
import { PACKAGE_NAME } from './version';

/** The failure categories n8n's newer NodeApiError understands (set as `error.failure`). */
export type FailureCause =
	| 'rate-limited'
	| 'quota-exhausted'
	| 'temporarily-unavailable'
	| 'credential-invalid'
	| 'configuration-invalid';

/** What a workflow (or continueOnFail item) can switch on, whatever the message says. */
export interface ServiceErrorDetails {
	error: string;
	error_code: string;
	httpCode: number | null;
	retryAfterMs?: number;
	/** Out of credit (402): what the service says is left, and its top-up address. */
	availableMicrocents?: number;
	upgradeUrl?: string;
}

/** The service's error body (docs/service.md#errors), with the extra fields of 402 and 429. */
export interface ServiceErrorBody {
	error?: string;
	error_code?: string;
	message?: string;
	neededMicrocents?: number;
	availableMicrocents?: number;
	upgradeUrl?: string;
	hint?: string;
	retryAfterMs?: number;
}

export interface ErrorCircumstances {
	tool: ToolName;
	itemIndex?: number;
	/** Retries already made before giving up. */
	retries?: number;
	/** The wait the service asked for on the last 429. */
	retryAfterMs?: number;
	/** Which bound ended the retries: the number of retries or the time to wait. */
	exhausted?: 'retries' | 'wait';
	/** When the answer came (default: now); a 429's wait counts from it. */
	answeredAtMs?: number;
}

/**
 * What n8n 2.41's poll scheduler reads to back a failing trigger off: a rate limit's wait both as
 * a span and as the moment it ends, so a reader that prefers either gets the service's answer.
 */
export interface Failure {
	cause: FailureCause;
	retryAfterMs?: number;
	resetsAtEpochMs?: number;
}

type DetailedError = NodeApiError & { failure?: Failure };

const DETAILS_KEY = 'jobSearch';

function toolTitle(tool: ToolName): string {
	return toolDefinitions().find((t) => t.name === tool)?.title ?? tool;
}

/** " [item N]" when the error belongs to an input item, as n8n's own nodes write it. */
export function itemSuffix(itemIndex: number | undefined): string {
	return itemIndex === undefined ? '' : ` [item ${itemIndex}]`;
}

/** "1 retry", "3 retries". */
function retriesText(n: number): string {
	return `${n} ${n === 1 ? 'retry' : 'retries'}`;
}

function seconds(ms: number): string {
	const s = ms / 1000;
	return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** "Free keys allow 10 requests a minute, Pro keys 60, Enterprise keys 600." */
function rateLimitsSentence(): string {
	const [first, ...rest] = Object.values(SERVICE_PLANS);
	const others = rest.map((plan) => `${plan.title} keys ${plan.requestsPerMinute}`);
	return `${[`${first.title} keys allow ${first.requestsPerMinute} requests a minute`, ...others].join(', ')}.`;
}

interface Mapped {
	message: string;
	description: string;
	failure?: FailureCause;
}

function map(status: number, body: ServiceErrorBody, c: ErrorCircumstances): Mapped {
	const said = nonEmpty(typeof body.error === 'string' ? body.error : undefined) ?? nonEmpty(typeof body.message === 'string' ? body.message : undefined) ?? '';
	const title = toolTitle(c.tool);
	switch (body.error_code ?? String(status)) {
		case 'validation_error':
		case '400':
			return {
				message: `The service rejected the input: ${said || 'it gave no reason'}`,
				description:
					'Fix the field the message names. Keys typed into "Additional Filters (JSON)" are checked by the service only, and an unknown key is refused so that a typo cannot widen a paid search.',
				failure: 'configuration-invalid',
			};
		case 'invalid_key':
		case '401':
			return {
				message: 'The API key is missing, wrong or revoked',
				description:
					'Open the Job Search API credential and paste a current key (it starts with gm_). Keys are shown once when created; a revoked key is refused at once, so create a new one in the dashboard.',
				failure: 'credential-invalid',
			};
		case 'insufficient_credits':
		case '402': {
			const { neededMicrocents: needed, availableMicrocents: available } = body;
			const lines = [
				typeof needed === 'number' ? `Needed: ${formatUsd(needed)} (${needed} microcents).` : undefined,
				typeof available === 'number' ? `Available: ${formatUsd(available)} (${available} microcents).` : undefined,
			];
			const amounts = lines.filter(Boolean).join(' ');
			return {
				message: `Out of credit: ${nonEmpty(body.message) ?? nonEmpty(said) ?? 'the monthly pool and prepaid packs are empty'}`,
				description: [
					amounts || undefined,
					nonEmpty(body.hint),
					nonEmpty(body.upgradeUrl) ? `Top up or upgrade: ${body.upgradeUrl}` : undefined,
					'This is never retried: a retry cannot succeed until credit is added.',
				]
					.filter(Boolean)
					.join('\n'),
				failure: 'quota-exhausted',
			};
		}
		case 'addon_forbidden':
			return {
				message: `${c.tool === 'get_job' ? 'Get Job with client history' : title} needs the premium addon, which your plan does not include`,
				description:
					`The ${plansWithPremiumAddon('and')} plans include the premium addon (Get Client Activity, Get Client History, Get Job with client history). Upgrade the plan, or set the option "On Premium Not Included" to skip or pass the item through.`,
				failure: 'configuration-invalid',
			};
		case '403':
			return {
				message: `The host refused the request (HTTP 403)${said ? `: ${said.slice(0, 200)}` : ''}`,
				description:
					'The service answers 403 only with error_code addon_forbidden; this one came without it, so a proxy, firewall or web application firewall in front of the service most likely refused the request. Check the Base URL in the credential and the network path to it. It was not retried.',
			};
		case 'not_found':
		case '404':
			return {
				message: `Not found: ${said || 'the service has no such record'}`,
				// Search Jobs names no record: its 404 means the tool's address is wrong, a Base URL with a path.
				description:
					c.tool === 'search_jobs'
						? 'Search Jobs looks up no record, so the host has no such tool: remove any path after the host from the Base URL in the credential (https://api.getmany.com.ua, without /v1).'
						: 'Check the Job UID: it must be the uid of a job the search returned (a string of digits). If every Job UID is not found, remove any path after the host from the Base URL in the credential.',
			};
		case 'payload_too_large':
		case '413':
			return {
				message: tooLargeMessage(),
				description: 'Shorten the request: usually a very long keyword or location list in the filters.',
				failure: 'configuration-invalid',
			};
		case 'rate_limited':
		case '429': {
			const wait = c.retryAfterMs ?? body.retryAfterMs;
			const asked = wait === undefined ? 'did not say how long to wait' : `asked to wait ${seconds(wait)}`;
			const bound =
				c.exhausted === 'retries'
					? `and Max Retries (${c.retries ?? 0}) is used up`
					: `longer than this node may wait${c.retries ? ` after ${c.retries} retries` : ''}`;
			return {
				message: `Rate limited: the service ${asked}, ${bound}`,
				description:
					`Raise "Max Retries" or "Max Retry Wait (Seconds)" in the options, lower "Concurrency", or set "Min Interval Between Requests". ${rateLimitsSentence()}`,
				failure: 'rate-limited',
			};
		}
		case 'runtime_error':
		case '500':
			return {
				message: `The service had an internal fault${c.retries ? ` (still failing after ${retriesText(c.retries)})` : ''}`,
				description: 'This is on the service side and usually passes. Try again later, or raise "Max Retries".',
				failure: 'temporarily-unavailable',
			};
		case 'method_not_allowed':
		case '405':
			return {
				message: 'The service refused the HTTP method',
				description: `Every endpoint takes POST. Check that the Base URL in the credential points at the service, and report this to ${PACKAGE_NAME} if it does.`,
			};
		default: {
			const retried = RETRYABLE_STATUSES.includes(status);
			return {
				message: `The service answered HTTP ${status}${body.error_code ? ` (${body.error_code})` : ''}${said ? `: ${said.slice(0, 200)}` : ''}${retried && c.retries ? ` (still failing after ${retriesText(c.retries)})` : ''}`,
				description: retried
					? `A proxy or load balancer in front of the service answers this while the service is restarting or overloaded; it was retried${c.retries ? ` ${c.retries === 1 ? 'once' : `${c.retries} times`}` : ''} with backoff. Try again later, or raise "Max Retries".`
					: 'The node does not know this answer; it was not retried.',
				failure: status >= 500 ? 'temporarily-unavailable' : undefined,
			};
		}
	}
}

function nonEmpty(text: string | undefined): string | undefined {
	return typeof text === 'string' && text.trim() !== '' ? text : undefined;
}

function attach<E extends NodeApiError | NodeOperationError>(
	error: E,
	details: ServiceErrorDetails,
	failure?: FailureCause,
	answeredAtMs: number = Date.now(),
): E {
	error.context[DETAILS_KEY] = details;
	if (failure) {
		const wait = details.retryAfterMs;
		(error as DetailedError).failure = {
			cause: failure,
			...(wait !== undefined ? { retryAfterMs: wait, resetsAtEpochMs: answeredAtMs + wait } : {}),
		};
	}
	return error;
}

/** The words of a text or HTML error page, short: "<html><h1>Bad Gateway</h1></html>" gives "Bad Gateway". */
function plainText(text: string): string {
	return text
		.slice(0, 20_000)
		.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim()
		.slice(0, 300);
}

/** A NodeApiError for a non-2xx answer. Built from the body only, so no request (or key) rides along. */
export function serviceError(
	node: INode,
	status: number,
	rawBody: unknown,
	circumstances: ErrorCircumstances,
): NodeApiError {
	const body: ServiceErrorBody =
		typeof rawBody === 'object' && rawBody !== null ? (rawBody as ServiceErrorBody) : { error: typeof rawBody === 'string' ? plainText(rawBody) : undefined };
	const mapped = map(status, body, circumstances);
	const message = `${mapped.message}${itemSuffix(circumstances.itemIndex)}`;
	const retryAfterMs = circumstances.retryAfterMs ?? body.retryAfterMs;
	const error = new NodeApiError(node, { ...body } as JsonObject, {
		message,
		description: mapped.description,
		httpCode: String(status),
		itemIndex: circumstances.itemIndex,
	});
	return attach(
		error,
		{
			error: message,
			error_code: body.error_code ?? `http_${status}`,
			httpCode: status,
			...(status === 429 && retryAfterMs !== undefined ? { retryAfterMs } : {}),
			...(status === 402 && Number.isSafeInteger(body.availableMicrocents) ? { availableMicrocents: body.availableMicrocents } : {}),
			...(status === 402 && typeof body.upgradeUrl === 'string' ? { upgradeUrl: body.upgradeUrl } : {}),
		},
		mapped.failure,
		circumstances.answeredAtMs,
	);
}

/** "The request is 10.5 MiB, more than the service accepts (10 MiB per call)". */
export function tooLargeMessage(bytes?: number): string {
	const size = bytes === undefined ? 'larger' : `${(bytes / (1024 * 1024)).toFixed(1)} MiB,`;
	return `The request is ${size} ${bytes === undefined ? 'than' : 'more than'} the service accepts (${MAX_BODY_LABEL} per call)`;
}

/** A NodeApiError for a 2xx whose body is not the service's `{ data, usage }` envelope. */
export function invalidResponseError(
	node: INode,
	status: number,
	problem: string,
	baseUrl: string,
	circumstances: ErrorCircumstances,
): NodeApiError {
	const retried = circumstances.retries ? ` (the same after ${retriesText(circumstances.retries)})` : '';
	const message = `The host answered ${status} but not with the service's response: ${problem}${retried}${itemSuffix(circumstances.itemIndex)}`;
	const error = new NodeApiError(node, { error: message, error_code: 'invalid_response' }, {
		message,
		description: `Check the Base URL in the credential (${baseUrl}): it must be the service's REST address, such as https://api.getmany.com.ua, not a web page. A proxy, captive portal or firewall between n8n and the service can also answer in its place.`,
		httpCode: String(status),
		itemIndex: circumstances.itemIndex,
	});
	return attach(error, { error: message, error_code: 'invalid_response', httpCode: status }, 'temporarily-unavailable');
}

/** A NodeApiError for a 3xx: the node follows no redirect, so the key goes nowhere but the Base URL. */
export function redirectError(
	node: INode,
	status: number,
	headers: Record<string, unknown>,
	baseUrl: string,
	circumstances: ErrorCircumstances,
): NodeApiError {
	const location = headerValue(headers, 'location')?.slice(0, 200);
	const message = `The Base URL redirects (HTTP ${status})${location ? ` to ${location}` : ''}${itemSuffix(circumstances.itemIndex)}`;
	const error = new NodeApiError(node, { error: message, error_code: 'redirected' }, {
		message,
		description: `The node does not follow redirects, so that the API key is sent to no address but the Base URL. Put the address the service answers at into the Base URL of the credential (now ${baseUrl}), for example https:// instead of http://.`,
		httpCode: String(status),
		itemIndex: circumstances.itemIndex,
	});
	return attach(error, { error: message, error_code: 'redirected', httpCode: status }, 'configuration-invalid');
}

/** A NodeApiError for a request that got no answer. The network code goes in the description only. */
export function networkError(
	node: INode,
	code: string | undefined,
	baseUrl: string,
	circumstances: ErrorCircumstances,
): NodeApiError {
	const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT';
	const what = timedOut
		? 'The service did not answer in time'
		: `Could not reach the service${circumstances.retries ? ` (after ${retriesText(circumstances.retries)})` : ''}`;
	const message = `${what}${itemSuffix(circumstances.itemIndex)}`;
	const description = timedOut
		? 'Not retried, because the service may have done (and billed) the work. Raise "Timeout (Seconds)" in the options, try a smaller Limit, or check the Base URL in the credential.'
		: `Check the Base URL in the credential (${baseUrl}) and the network. Network code: ${code ?? 'unknown'}.`;
	const error = new NodeApiError(node, { error: message, error_code: 'network_error' }, {
		message,
		description,
		itemIndex: circumstances.itemIndex,
	});
	return attach(error, { error: message, error_code: 'network_error', httpCode: null }, 'temporarily-unavailable');
}

/** A NodeOperationError (bad input, cost cap) that still carries a machine-readable error_code. */
export function operationError(
	node: INode,
	errorCode: string,
	message: string,
	options: { description?: string; itemIndex?: number } = {},
): NodeOperationError {
	const error = new NodeOperationError(node, message, options);
	// Input the user must fix: n8n 2.41's durable scheduler then waits its longest before polling again, not seconds.
	return attach(error, { error: message, error_code: errorCode, httpCode: null }, errorCode === 'invalid_input' ? 'configuration-invalid' : undefined);
}

/** The machine-readable part of any error this package throws, for error items and tests. */
export function errorDetails(error: unknown): ServiceErrorDetails {
	const context = (error as { context?: Record<string, unknown> })?.context;
	const known = context?.[DETAILS_KEY] as ServiceErrorDetails | undefined;
	const message = (error as { message?: string })?.message ?? String(error);
	if (known) return { ...known, error: message };
	return { error: message, error_code: 'node_error', httpCode: null };
}
