import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters, NodeParameterValueType } from 'n8n-workflow';

import { errorDetails } from '../../transport/errors';

// What an AI model reads when the node, run as an AI Agent's tool, cannot do what it asked. A
// thrown error reaches no model with n8n's defaults (AI Agent 3.x fails the whole execution, 2.x
// sends an empty message), so in tool mode every refusal is the tool's answer instead: what was
// wrong, which argument to change and how, and whether anything was spent, in words for a model
// choosing arguments, not for the workflow's author.

/** A node field an error is about: where it sits in the parameters, and how the message names it. */
export interface FieldAtFault {
	/** Dotted parameter path, e.g. "clientFilters.clientIncludeLocations". */
	path: string;
	/** The field as the message names it, e.g. "Client Countries (client.includeLocations)". */
	label: string;
	/** Where the same value may have come from instead (a wire key typed into Additional Filters). */
	orPath?: string;
}

const FIELDS_KEY = 'jobSearchFields';

/** Marks `error` as being about `fields`, so the tool's answer can name the arguments behind them. */
export function aboutFields<E extends { context: IDataObject }>(error: E, fields: readonly FieldAtFault[]): E {
	error.context[FIELDS_KEY] = fields.map((f) => ({ ...f }));
	return error;
}

function fieldsOf(error: unknown): FieldAtFault[] | undefined {
	const context = (error as { context?: IDataObject })?.context;
	const fields = context?.[FIELDS_KEY];
	return Array.isArray(fields) ? (fields as unknown as FieldAtFault[]) : undefined;
}

const FROM_AI_KEY = /\$fromAI\s*\(\s*(['"`])([^'"`]*)\1/g;

/** The $fromAI keys (the tool's argument names) anywhere in a raw parameter value. */
function fromAiKeys(value: unknown, found: Set<string> = new Set()): Set<string> {
	if (typeof value === 'string') for (const match of value.matchAll(FROM_AI_KEY)) found.add(match[2]);
	else if (Array.isArray(value)) for (const entry of value) fromAiKeys(entry, found);
	else if (typeof value === 'object' && value !== null) for (const entry of Object.values(value)) fromAiKeys(entry, found);
	return found;
}

function rawAt(parameters: INodeParameters, path: string): NodeParameterValueType | undefined {
	let at: unknown = parameters;
	for (const key of path.split('.')) {
		if (typeof at !== 'object' || at === null || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
		at = (at as Record<string, unknown>)[key];
	}
	return at as NodeParameterValueType;
}

/** The tool arguments (the $fromAI keys) that feed a field, read from the node's unresolved parameters. */
export function argumentsOf(parameters: INodeParameters, path: string): string[] {
	return [...fromAiKeys(rawAt(parameters, path))];
}

const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(' and ');

/** The error's own message, without n8n's " [item N]" and a final period: the model sent one call, not items. */
function plain(message: string): string {
	return message.replace(/\s*\[item \d+\]\s*$/, '').replace(/\.\s*$/, '').trim();
}

const NOT_SENT = 'Nothing was sent, so nothing was charged.';
const NOT_CHARGED = 'Nothing was charged.';

export interface Refusal {
	/** The sentence(s) the model reads: what was wrong, what to do, what was spent. */
	error: string;
	/** The argument(s) to change, as the model named them; null when no argument of this call is at fault. */
	argument: string | null;
	/** Whether the call was billed: false for every refusal; "unknown" when the service did not answer. */
	charged: false | 'unknown';
	/** Set on a rate limit: how long the service asked to wait. */
	retryAfterSeconds?: number;
}

interface Culprits {
	/** The message with each field the model fills named by its argument. */
	message: string;
	arguments: string[];
	/** The fields at fault that the workflow fixes itself (no argument reaches them). */
	fixedByWorkflow: string[];
}

function culprits(parameters: INodeParameters, message: string, fields: readonly FieldAtFault[]): Culprits {
	let text = message;
	const args: string[] = [];
	const fixed: string[] = [];
	for (const field of fields) {
		const own = argumentsOf(parameters, field.path);
		const keys = own.length > 0 || field.orPath === undefined ? own : argumentsOf(parameters, field.orPath);
		if (keys.length === 0) {
			fixed.push(field.label.replace(/\s*\([^)]*\)$/, ''));
			continue;
		}
		args.push(...keys.filter((k) => !args.includes(k)));
		const named = `the argument ${quoted(keys)}`;
		text = text.includes(field.label) ? text.replace(field.label, named) : `${text} (${named})`;
	}
	return { message: text.charAt(0).toUpperCase() + text.slice(1), arguments: args, fixedByWorkflow: fixed };
}

const SETTINGS_AT_FAULT = "This is a setting of the workflow, not an argument of this call: tell the user that the Job Search tool's settings need fixing.";

/**
 * A slip found before anything was sent, or a refusal of the input by the service: the model can
 * fix it as `how` says by changing the arguments behind the fields, unless the workflow sets those fields.
 */
function inputRefusal(
	parameters: INodeParameters,
	message: string,
	fields: readonly FieldAtFault[],
	spent: string,
	how: (args: string) => string = (args) => `Change ${args} as said and call again.`,
): Refusal {
	const found = culprits(parameters, message, fields);
	const fix =
		found.arguments.length > 0
			? how(quoted(found.arguments))
			: found.fixedByWorkflow.length > 0
				? `The workflow sets ${found.fixedByWorkflow.join(' and ')} itself, so no argument of this tool changes it: tell the user that the Job Search tool's settings need fixing.`
				: SETTINGS_AT_FAULT;
	return { error: `${found.message}. ${fix} ${spent}`, argument: found.arguments.length > 0 ? found.arguments.join(', ') : null, charged: false };
}

/** The service's error codes by status, for an answer that came without one (a proxy's, say). */
const CODE_OF_STATUS: Record<number, string> = {
	400: 'validation_error',
	401: 'invalid_key',
	402: 'insufficient_credits',
	404: 'not_found',
	429: 'rate_limited',
};

/** What the fields of a refusal default to when the error names none: the one field an operation's input hangs on. */
export type DefaultFields = (errorCode: string) => FieldAtFault[];

/**
 * The tool's answer to an error of this call, as one output item: a refusal the model can act on.
 * `defaultFields` names the field an error is about when the error itself does not.
 */
export function refusalItem(this: IExecuteFunctions, error: unknown, defaultFields: DefaultFields): INodeExecutionData {
	const details = errorDetails(error);
	const parameters = this.getNode().parameters;
	const said = plain(details.error);
	const code = (details.httpCode !== null && details.error_code === `http_${details.httpCode}` && CODE_OF_STATUS[details.httpCode]) || details.error_code;
	const fields = fieldsOf(error) ?? defaultFields(code);
	let refusal: Refusal;
	switch (code) {
		case 'invalid_input':
			refusal = inputRefusal(parameters, said, fields, NOT_SENT);
			break;
		case 'validation_error':
			refusal = inputRefusal(parameters, said, fields, NOT_CHARGED);
			break;
		case 'not_found':
			refusal = inputRefusal(
				parameters,
				said,
				fields,
				NOT_CHARGED,
				(args) => `Call again with ${args} set to the uid of a job from a Search Jobs result (a string of digits), or answer without this job.`,
			);
			break;
		case 'credit_cap_reached': {
			// A search's cost is its rows: fewer of them may fit where the call as asked did not.
			const rows = [...new Set(fields.flatMap((f) => argumentsOf(parameters, f.path)))];
			const fewer = rows.length > 0 ? `ask for fewer jobs with a smaller ${quoted(rows)}` : 'ask for less';
			refusal = {
				error: `${said}. The workflow caps what one run may spend: ${fewer}, or answer with what you have. ${NOT_SENT}`,
				argument: rows.length > 0 ? rows.join(', ') : null,
				charged: false,
			};
			break;
		}
		case 'insufficient_credits':
			refusal = {
				error: `${said}. No call of this tool can succeed until the user adds credit${details.upgradeUrl ? ` (${details.upgradeUrl})` : ''}: do not call it again, tell the user. ${NOT_CHARGED}`,
				argument: null,
				charged: false,
			};
			break;
		case 'addon_forbidden':
			refusal = {
				error: `${said}. Do not call it again in this conversation; answer without it and tell the user if it matters. ${NOT_CHARGED}`,
				argument: null,
				charged: false,
			};
			break;
		case 'rate_limited': {
			const seconds = details.retryAfterMs === undefined ? undefined : Math.ceil(details.retryAfterMs / 1000);
			refusal = {
				error: `The service is limiting how often this API key may call it, and asked to wait ${seconds === undefined ? 'a while' : `${seconds} s`}, longer than the tool waits. Call again after that, or answer with what you have. ${NOT_CHARGED}`,
				argument: null,
				charged: false,
				...(seconds === undefined ? {} : { retryAfterSeconds: seconds }),
			};
			break;
		}
		case 'invalid_key':
			refusal = {
				error: `${said}. No call of this tool can succeed until the user fixes the Job Search credential: do not call it again, tell the user. ${NOT_CHARGED}`,
				argument: null,
				charged: false,
			};
			break;
		case 'network_error': {
			// A request that got no answer may have been served, and billed, all the same.
			const unanswered = /did not answer in time/.test(said);
			refusal = {
				error: `${said}. Try again later, or answer with what you have. ${unanswered ? 'It may have been charged.' : NOT_CHARGED}`,
				argument: null,
				charged: unanswered ? 'unknown' : false,
			};
			break;
		}
		default:
			refusal = {
				error: `${said}. This is not about the arguments: try again later, or answer with what you have and tell the user. ${NOT_CHARGED}`,
				argument: null,
				charged: false,
			};
	}
	return { json: refusal as unknown as IDataObject, pairedItem: { item: 0 } };
}
