import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { FILTER_BY_KEY, preview, toolDefinitions, validate as explainFilters, type JsonSchema, type ToolName } from '../nodes/JobSearch/filters';

interface Compiled {
	check: ValidateFunction;
	properties: Record<string, JsonSchema>;
	known: string[];
}

let compiled: Map<ToolName, Compiled> | undefined;

/**
 * One ajv per process, compiled from the filter schema's tool definitions, the ones MCP lists,
 * with every spelling the service accepts (MCP advertises each value once).
 */
export function validators(): Map<ToolName, Compiled> {
	if (!compiled) {
		const ajv = new Ajv({ allErrors: true, strict: true });
		addFormats(ajv);
		compiled = new Map(
			toolDefinitions({ acceptedSpellings: true }).map((t) => {
				const properties = t.inputSchema.properties ?? {};
				return [t.name, { check: ajv.compile(t.inputSchema), properties, known: Object.keys(properties) }];
			}),
		);
	}
	return compiled;
}

/** Unknown keys reported by name, at most this many; the rest are counted. */
const SHOWN_UNKNOWN_FIELDS = 3;
/** Names longer than this get no "did you mean": the edit distance is quadratic in the length. */
const HINTED_NAME_LENGTH = 64;

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

function fieldOf(error: ErrorObject): string | undefined {
	const first = error.instancePath.split('/')[1];
	return first === undefined ? undefined : first.replace(/~1/g, '/').replace(/~0/g, '~');
}

function editDistance(a: string, b: string): number {
	const row = Array.from({ length: b.length + 1 }, (_, i) => i);
	for (let i = 1; i <= a.length; i++) {
		let diagonal = row[0];
		row[0] = i;
		for (let j = 1; j <= b.length; j++) {
			const above = row[j];
			row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
			diagonal = above;
		}
	}
	return row[b.length];
}

function unknownField(name: string, known: string[]): string {
	if (name.length > HINTED_NAME_LENGTH) return `Unknown field ${preview(name)}: it is not an input of this tool`;
	const nearest = known
		.map((k) => ({ k, d: editDistance(name.toLowerCase(), k.toLowerCase()) }))
		.sort((x, y) => x.d - y.d)[0];
	const hint = nearest && nearest.d <= Math.max(2, Math.floor(name.length / 4)) ? `; did you mean "${nearest.k}"?` : '';
	return `Unknown field ${JSON.stringify(name)}: it is not an input of this tool (keys are flat, the dots are part of the name)${hint}`;
}

function describe(tool: ToolName, input: Record<string, unknown>, errors: ErrorObject[], known: string[]): string[] {
	const messages = new Set<string>();
	// One message per field: a list with many bad entries is explained once, not once per entry.
	const explainedFields = new Set<string>();
	for (const error of errors) {
		if (error.keyword === 'additionalProperties' && error.instancePath === '') {
			messages.add(unknownField(String(error.params.additionalProperty), known));
			continue;
		}
		if (error.keyword === 'required' && error.instancePath === '') {
			messages.add(`${String(error.params.missingProperty)} is required`);
			continue;
		}
		const field = fieldOf(error);
		if (field === undefined) {
			messages.add(`The request body ${error.message ?? 'is invalid'}`);
			continue;
		}
		if (explainedFields.has(field)) continue;
		explainedFields.add(field);
		// The filter schema words its problems for people (title, key, how to fix): prefer that.
		const explained = tool === 'search_jobs' && FILTER_BY_KEY.has(field) ? explainFilters({ [field]: input[field] })[0] : undefined;
		if (explained) messages.add(explained.message);
		else if (field === 'jobUid') messages.add(jobUidProblem(input[field]));
		else messages.add(`${field}${error.instancePath.slice(field.length + 1).replace(/\//g, '.')} ${error.message ?? 'is invalid'}`);
	}
	return [...messages];
}

function jobUidProblem(value: unknown): string {
	return `jobUid must be a string of digits as returned in uid by search_jobs; got ${preview(value)}`;
}

/** Keys the tool does not take, a few by name; counted in one pass, without looking at their values. */
function unknownFieldsProblem(input: Record<string, unknown>, { properties, known }: Compiled): string | undefined {
	const shown: string[] = [];
	let count = 0;
	for (const key of Object.keys(input)) {
		if (hasOwn(properties, key)) continue;
		count++;
		if (shown.length < SHOWN_UNKNOWN_FIELDS) shown.push(key);
	}
	if (count === 0) return undefined;
	const messages = shown.map((name) => unknownField(name, known));
	if (count > shown.length) messages.push(`and ${count - shown.length} more unknown fields`);
	return messages.join('; ');
}

/** Lists and texts longer than the schema allows, found before any entry is validated. */
function boundsProblem(tool: ToolName, input: Record<string, unknown>, { properties }: Compiled): string | undefined {
	const messages: string[] = [];
	for (const [field, schema] of Object.entries(properties)) {
		if (!hasOwn(input, field)) continue;
		const value = input[field];
		const itemLength = schema.items?.maxLength;
		const tooLong =
			(Array.isArray(value) &&
				((schema.maxItems !== undefined && value.length > schema.maxItems) ||
					(itemLength !== undefined && value.some((v) => typeof v === 'string' && v.length > itemLength)))) ||
			(typeof value === 'string' && schema.maxLength !== undefined && value.length > schema.maxLength);
		if (!tooLong) continue;
		if (tool === 'search_jobs' && FILTER_BY_KEY.has(field)) messages.push(explainFilters({ [field]: value })[0].message);
		else if (field === 'jobUid') messages.push(jobUidProblem(value));
		else messages.push(`${field} is longer than allowed`);
	}
	return messages.length > 0 ? messages.join('; ') : undefined;
}

/**
 * Why a tool input is refused, naming each field, or undefined when it is valid. The cheap
 * checks (unknown keys, the schema's length bounds) come first, so the full validation only
 * ever sees a bounded input and its work does not grow with the body's size.
 */
export function inputProblem(tool: ToolName, input: unknown): string | undefined {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) {
		return 'The request body must be a JSON object of tool inputs';
	}
	const compiledTool = validators().get(tool)!;
	const body = input as Record<string, unknown>;
	const early = unknownFieldsProblem(body, compiledTool) ?? boundsProblem(tool, body, compiledTool);
	if (early) return early;
	if (!compiledTool.check(body)) return describe(tool, body, compiledTool.check.errors ?? [], compiledTool.known).join('; ');
	// What JSON Schema cannot say, checked as the node checks it: a day no calendar has (30
	// February), then a minimum above its maximum.
	const issues = tool === 'search_jobs' ? explainFilters(body) : [];
	return issues.length > 0 ? issues.map((issue) => issue.message).join('; ') : undefined;
}
