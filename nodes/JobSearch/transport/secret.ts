/** What stands in for the API key wherever a host sent it back. */
export const REDACTED = '[redacted]';

/** Shorter values are not keys (an empty or placeholder credential): replacing them would mangle text. */
const MIN_SECRET_LENGTH = 8;

/** No answer of the service nests this deep; a host's answer that does is cut off there. */
const MAX_DEPTH = 1000;

/** Whether `secret` is in any string or key under `value`: a walk that copies nothing (the usual case). */
function contains(value: unknown, secret: string, depth = 0): boolean {
	if (typeof value === 'string') return value.includes(secret);
	if (typeof value !== 'object' || value === null) return false;
	if (depth > MAX_DEPTH) return true; // too deep to be sure: let redact cut it off
	if (Array.isArray(value)) return value.some((item) => contains(item, secret, depth + 1));
	for (const key in value) {
		if (key.includes(secret) || contains((value as Record<string, unknown>)[key], secret, depth + 1)) return true;
	}
	return false;
}

/**
 * Returns `value` with every occurrence of `secret` replaced, in strings and in object keys, at
 * any depth. A host can echo the Authorization header (an error page quoting the request, a
 * debugging proxy, an httpbin-like echo): nothing it sends back may carry the key into an error,
 * an output item or the execution data. Unchanged parts are returned as they are.
 */
export function redact<V>(value: V, secret: string | undefined): V {
	if (!secret || secret.length < MIN_SECRET_LENGTH || !contains(value, secret)) return value;
	const seen = new Map<object, unknown>();
	const visit = (node: unknown, depth = 0): unknown => {
		if (typeof node === 'string') return node.includes(secret) ? node.split(secret).join(REDACTED) : node;
		if (typeof node !== 'object' || node === null) return node;
		if (depth > MAX_DEPTH) return REDACTED;
		if (seen.has(node)) return seen.get(node);
		if (Array.isArray(node)) {
			const copy: unknown[] = [];
			seen.set(node, copy);
			let changed = false;
			for (const item of node) {
				const next = visit(item, depth + 1);
				changed ||= next !== item;
				copy.push(next);
			}
			if (!changed) seen.set(node, node);
			return changed ? copy : node;
		}
		const copy: Record<string, unknown> = {};
		seen.set(node, copy);
		let changed = false;
		for (const [key, item] of Object.entries(node)) {
			const nextKey = visit(key) as string;
			const next = visit(item, depth + 1);
			changed ||= next !== item || nextKey !== key;
			Object.defineProperty(copy, nextKey, { value: next, enumerable: true, writable: true, configurable: true });
		}
		if (!changed) seen.set(node, node);
		return changed ? copy : node;
	};
	return visit(value) as V;
}
