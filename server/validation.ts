import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { FILTER_BY_KEY, toolDefinitions, validate as explainFilters, type ToolName } from '../nodes/JobSearch/filters';

let compiled: Map<ToolName, ValidateFunction> | undefined;

/** One ajv per process, compiled from the filter schema's tool definitions, the same ones MCP lists. */
function validators(): Map<ToolName, ValidateFunction> {
	if (!compiled) {
		const ajv = new Ajv({ allErrors: true, strict: true });
		addFormats(ajv);
		compiled = new Map(toolDefinitions().map((t) => [t.name, ajv.compile(t.inputSchema)]));
	}
	return compiled;
}

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
	const nearest = known
		.map((k) => ({ k, d: editDistance(name.toLowerCase(), k.toLowerCase()) }))
		.sort((x, y) => x.d - y.d)[0];
	const hint = nearest && nearest.d <= Math.max(2, Math.floor(name.length / 4)) ? `; did you mean "${nearest.k}"?` : '';
	return `Unknown field "${name}": it is not an input of this tool (keys are flat, the dots are part of the name)${hint}`;
}

function describe(tool: ToolName, input: Record<string, unknown>, errors: ErrorObject[], known: string[]): string[] {
	const messages = new Set<string>();
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
		// The filter schema words its problems for people (title, key, how to fix): prefer that.
		const explained = tool === 'search_jobs' && FILTER_BY_KEY.has(field) ? explainFilters({ [field]: input[field] })[0] : undefined;
		if (explained) messages.add(explained.message);
		else if (field === 'jobUid') messages.add(`jobUid must be a string of digits as returned in uid by search_jobs; got ${JSON.stringify(input[field])}`);
		else messages.add(`${field}${error.instancePath.slice(field.length + 1).replace(/\//g, '.')} ${error.message ?? 'is invalid'}`);
	}
	return [...messages];
}

/** Why a tool input is refused, naming each field, or undefined when it is valid. */
export function inputProblem(tool: ToolName, input: unknown): string | undefined {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) {
		return 'The request body must be a JSON object of tool inputs';
	}
	const check = validators().get(tool)!;
	if (check(input)) return undefined;
	const known = Object.keys(toolDefinitions().find((t) => t.name === tool)!.inputSchema.properties ?? {});
	return describe(tool, input as Record<string, unknown>, check.errors ?? [], known).join('; ');
}
