import { hasOwnProtoKey } from '../filters/protoKey';

/** The first problem inside one filter's value, or undefined. */
function problemIn(value: unknown, filter: string): string | undefined {
	if (typeof value === 'string') {
		// What String() makes of an object: an expression or a field that gave an object where
		// text belongs. Sent, it would be a paid search for the words "object Object".
		return value.includes('[object Object]') ? `Filter "${filter}" got an object where text was expected ("[object Object]")` : undefined;
	}
	if (typeof value !== 'object' || value === null) return undefined;
	if (hasOwnProtoKey(value)) return `Filter "${filter}" has a key "__proto__", which cannot be sent`;
	for (const child of Object.values(value)) {
		const problem = problemIn(child, filter);
		if (problem) return problem;
	}
	return undefined;
}

/**
 * Why a request body must not be sent, naming the filter; undefined when it may be sent. A key
 * "__proto__" assigned while the body was built replaces the prototype instead of adding a key,
 * so the filter would be dropped without a word and the search billed all the same.
 */
export function unsendable(body: object): string | undefined {
	if (hasOwnProtoKey(body)) return 'The request has a key "__proto__", which is no filter and cannot be sent';
	for (const [filter, value] of Object.entries(body)) {
		const problem = problemIn(value, filter);
		if (problem) return problem;
	}
	return undefined;
}
