/**
 * The JSON body parser of every route. Before JSON.parse builds anything, one linear pass over the
 * text refuses shapes no tool input can have: nesting deeper than any input, or more values than
 * the largest input the schema accepts. So parsing, validation and everything after it see a
 * bounded body, and a 10 MiB request cannot hold the server for other accounts.
 *
 * JSON.parse (not a "secure" parser) on purpose: a `__proto__` key becomes an ordinary own key,
 * which validation then refuses by name like any other unknown key.
 */

/** Deepest nesting any request needs is 6 (MCP message, params, arguments, list, country object). */
export const MAX_JSON_DEPTH = 32;

/**
 * Values (containers and list entries) a body may hold. The largest body the search_jobs schema
 * accepts holds about 4,500 (every list at its maximum); test/server checks that it passes.
 */
export const MAX_JSON_VALUES = 20_000;

export class JsonBodyError extends Error {
	readonly statusCode = 400;
	readonly code = 'JOB_SEARCH_JSON_BODY';
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/** The index of the quote that closes the string opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
	let at = text.indexOf('"', open + 1);
	while (at !== -1) {
		let backslashes = 0;
		while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
		if (backslashes % 2 === 0) return at;
		at = text.indexOf('"', at + 1);
	}
	return -1;
}

/** Why the text's shape is refused, or undefined. Strings are skipped natively, so the pass is cheap. */
export function jsonShapeProblem(text: string, maxDepth = MAX_JSON_DEPTH, maxValues = MAX_JSON_VALUES): string | undefined {
	let depth = 0;
	let values = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === QUOTE) {
			const end = closingQuote(text, i);
			if (end === -1) return undefined; // JSON.parse reports the unterminated string
			i = end;
		} else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
			if (++depth > maxDepth) return `it nests deeper than ${maxDepth} levels, more than any tool input`;
			if (++values > maxValues) return `it holds more than ${maxValues.toLocaleString('en-US')} values, more than any tool input`;
		} else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
			depth--;
		} else if (c === COMMA && ++values > maxValues) {
			return `it holds more than ${maxValues.toLocaleString('en-US')} values, more than any tool input`;
		}
	}
	return undefined;
}

/** Fastify content-type parser body: shape check, then a plain JSON.parse. */
export function parseJsonBody(text: string): unknown {
	const problem = jsonShapeProblem(text);
	if (problem) throw new JsonBodyError(`Request body refused: ${problem}`);
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new JsonBodyError(`Body is not valid JSON: ${(error as Error).message.slice(0, 200)}`);
	}
}
