/**
 * Seeded randomness. Everything the server invents (jobs, live arrivals, client details) comes
 * from here, so the same seed always gives the same data.
 */
export type Random = () => number;

/** mulberry32: tiny, fast and good enough for test data. */
export function seededRandom(seed: number): Random {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** A stable 32-bit seed from any text (FNV-1a), e.g. to derive client details from a job uid. */
export function seedFromText(text: string, salt = 0): number {
	let hash = (0x811c9dc5 ^ salt) >>> 0;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash;
}

export function pick<T>(random: Random, items: readonly T[]): T {
	return items[Math.floor(random() * items.length)];
}

export function intBetween(random: Random, min: number, max: number): number {
	return min + Math.floor(random() * (max - min + 1));
}

export function chance(random: Random, probability: number): boolean {
	return random() < probability;
}

/** `count` distinct items, in a stable order. */
export function pickSome<T>(random: Random, items: readonly T[], count: number): T[] {
	const pool = [...items];
	const out: T[] = [];
	while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
	return out;
}
