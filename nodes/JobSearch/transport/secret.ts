/** What stands in for the API key wherever a host sent it back. */
export const REDACTED = '[redacted]';

/** Shorter values are not keys (an empty or placeholder credential): replacing them would mangle text. */
const MIN_SECRET_LENGTH = 8;

/**
 * Returns `value` with every occurrence of `secret` replaced, in strings and in object keys, at
 * any depth. A host can echo the Authorization header (an error page quoting the request, a
 * debugging proxy, an httpbin-like echo): nothing it sends back may carry the key into an error,
 * an output item or the execution data. Unchanged parts are returned as they are.
 */
export function redact<V>(value: V, secret: string | undefined): V {
	if (!secret || secret.length < MIN_SECRET_LENGTH) return value;
	const seen = new Map<object, unknown>();
	const visit = (node: unknown): unknown => {
		if (typeof node === 'string') return node.includes(secret) ? node.split(secret).join(REDACTED) : node;
		if (typeof node !== 'object' || node === null) return node;
		if (seen.has(node)) return seen.get(node);
		if (Array.isArray(node)) {
			const copy: unknown[] = [];
			seen.set(node, copy);
			let changed = false;
			for (const item of node) {
				const next = visit(item);
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
			const next = visit(item);
			changed ||= next !== item || nextKey !== key;
			Object.defineProperty(copy, nextKey, { value: next, enumerable: true, writable: true, configurable: true });
		}
		if (!changed) seen.set(node, node);
		return changed ? copy : node;
	};
	return visit(value) as V;
}
