import type { IDataObject } from 'n8n-workflow';

/** A search as the trigger polls it: one key per set of filters, with every name the user gave it. */
export interface SearchSpec {
	/** Stable while the filters stay the same: a search whose filters change starts over (silently). */
	key: string;
	/** The names of the searches with these filters, in the user's order. */
	names: string[];
	/** The search_jobs body without the window and limit, which each request adds. */
	filters: IDataObject;
}

/** JSON with the keys of every object sorted, so the same filters give the same text. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
	}
	return JSON.stringify(value);
}

/** A short key for a set of filters (FNV-1a of their canonical JSON): what the state keeps a search under. */
export function searchKey(filters: IDataObject): string {
	let hash = 0x811c9dc5;
	for (const char of canonical(filters)) {
		hash ^= char.charCodeAt(0);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(16).padStart(8, '0');
}

/** Searches with the same filters become one, with both names: the index is asked once for them. */
export function mergeSearches(searches: { name: string; filters: IDataObject }[]): SearchSpec[] {
	const byKey = new Map<string, SearchSpec>();
	for (const { name, filters } of searches) {
		const key = searchKey(filters);
		const known = byKey.get(key);
		if (known) known.names.push(name);
		else byKey.set(key, { key, names: [name], filters });
	}
	return [...byKey.values()];
}

/** Each job once, by uid, in the order first found, with the keys of every search that found it. */
export function jobsByUid<T>(found: { key: string; jobs: T[] }[], uidOf: (job: T) => string): Map<string, { job: T; keys: string[] }> {
	const byUid = new Map<string, { job: T; keys: string[] }>();
	for (const { key, jobs } of found) {
		for (const job of jobs) {
			const entry = byUid.get(uidOf(job));
			if (entry) entry.keys.push(key);
			else byUid.set(uidOf(job), { job, keys: [key] });
		}
	}
	return byUid;
}
