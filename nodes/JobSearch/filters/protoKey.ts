/**
 * Whether this one object (not its children) carries a key "__proto__": as an own key (what
 * JSON.parse makes of it), or as a prototype replaced by assigning one while a body was built.
 * Merged into a request either way, the key sets a prototype instead of a filter, or is dropped:
 * the filter would vanish without a word and the search be billed all the same.
 */
export function hasOwnProtoKey(value: object): boolean {
	if (Object.prototype.hasOwnProperty.call(value, '__proto__')) return true;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null;
}

/** Whether `value` carries a key "__proto__" at any depth. */
export function hasProtoKey(value: unknown): boolean {
	if (typeof value !== 'object' || value === null) return false;
	return hasOwnProtoKey(value) || Object.values(value).some(hasProtoKey);
}
