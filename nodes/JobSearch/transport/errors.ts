import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

import { toolDefinitions, type ToolName } from '../filters';
import { formatUsd } from '../pricing';
import { MAX_BODY_LABEL, SERVICE_PLANS, plansWithPremiumAddon } from '../service';
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
}

/** The service's error body (spec 7), with the extra fields of 402 and 429. */
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
}

type DetailedError = NodeApiError & { failure?: { cause: FailureCause; retryAfterMs?: number } };

const DETAILS_KEY = 'jobSearch';

function toolTitle(tool: ToolName): string {
	return toolDefinitions().find((t) => t.name === tool)?.title ?? tool;
}

/** " [item N]" when the error belongs to an input item, as n8n's own nodes write it. */
function itemSuffix(itemIndex: number | undefined): string {
	return itemIndex === undefined ? '' : ` [item ${itemIndex}]`;
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
	const said = body.error ?? body.message ?? '';
	const title = toolTitle(c.tool);
	switch (body.error_code ?? String(status)) {
		case 'validation_error':
		case '400':
			return {
				message: `The service rejected the input: ${said || 'validation error'}`,
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
			const needed = body.neededMicrocents ?? 0;
			const available = body.availableMicrocents ?? 0;
			const lines = [
				`Needed: ${formatUsd(needed)} (${needed} microcents). Available: ${formatUsd(available)} (${available} microcents).`,
				body.hint,
				body.upgradeUrl ? `Top up or upgrade: ${body.upgradeUrl}` : undefined,
				'This is never retried: a retry cannot succeed until credit is added.',
			];
			return {
				message: `Out of credit: ${body.message ?? said ?? 'the monthly pool and prepaid packs are empty'}`,
				description: lines.filter(Boolean).join('\n'),
				failure: 'quota-exhausted',
			};
		}
		case 'addon_forbidden':
		case '403':
			return {
				message: `${c.tool === 'get_job' ? 'Get Job with client history' : title} needs the premium addon, which your plan does not include`,
				description:
					`The ${plansWithPremiumAddon('and')} plans include the premium addon (Get Client Activity, Get Client History, Get Job with client history). Upgrade the plan, or set the option "On Premium Not Included" to skip or pass the item through.`,
				failure: 'configuration-invalid',
			};
		case 'not_found':
		case '404':
			return {
				message: `Not found: ${said || 'the service has no such record'}`,
				description: 'Check the Job UID: it must be the uid of a job the search returned (a string of digits).',
			};
		case 'payload_too_large':
		case '413':
			return {
				message: `The request is larger than the service accepts (${MAX_BODY_LABEL} per call)`,
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
				message: `The service had an internal error${c.retries ? ` (still failing after ${c.retries} retries)` : ''}`,
				description: 'This is on the service side and usually passes. Try again later, or raise "Max Retries".',
				failure: 'temporarily-unavailable',
			};
		case 'method_not_allowed':
		case '405':
			return {
				message: 'The service refused the HTTP method',
				description: `Every endpoint takes POST. Check that the Base URL in the credential points at the service, and report this to ${PACKAGE_NAME} if it does.`,
			};
		default:
			return {
				message: `The service answered HTTP ${status}${body.error_code ? ` (${body.error_code})` : ''}${said ? `: ${said}` : ''}`,
				description: 'The node does not know this answer; it was not retried.',
				failure: status >= 500 ? 'temporarily-unavailable' : undefined,
			};
	}
}

function attach<E extends NodeApiError | NodeOperationError>(
	error: E,
	details: ServiceErrorDetails,
	failure?: FailureCause,
): E {
	error.context[DETAILS_KEY] = details;
	if (failure) {
		(error as DetailedError).failure = {
			cause: failure,
			...(details.retryAfterMs !== undefined ? { retryAfterMs: details.retryAfterMs } : {}),
		};
	}
	return error;
}

/** A NodeApiError for a non-2xx answer. Built from the body only, so no request (or key) rides along. */
export function serviceError(
	node: INode,
	status: number,
	rawBody: unknown,
	circumstances: ErrorCircumstances,
): NodeApiError {
	const body: ServiceErrorBody =
		typeof rawBody === 'object' && rawBody !== null ? (rawBody as ServiceErrorBody) : { error: typeof rawBody === 'string' ? rawBody.slice(0, 300) : undefined };
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
		},
		mapped.failure,
	);
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
		: `Could not reach the service${circumstances.retries ? ` (after ${circumstances.retries} retries)` : ''}`;
	const message = `${what}${itemSuffix(circumstances.itemIndex)}`;
	const description = timedOut
		? 'Not retried, because the service may have done (and billed) the work. Try a smaller Limit, or check the Base URL in the credential.'
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
	return attach(error, { error: message, error_code: errorCode, httpCode: null });
}

/** The machine-readable part of any error this package throws, for error items and tests. */
export function errorDetails(error: unknown): ServiceErrorDetails {
	const context = (error as { context?: Record<string, unknown> })?.context;
	const known = context?.[DETAILS_KEY] as ServiceErrorDetails | undefined;
	const message = (error as { message?: string })?.message ?? String(error);
	if (known) return { ...known, error: message };
	return { error: message, error_code: 'node_error', httpCode: null };
}
