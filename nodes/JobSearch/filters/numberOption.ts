/**
 * A number parameter or option as the node reads it: a finite number, or a numeric text (what an
 * expression may give); `fallback` for anything else (missing, empty, NaN, an object). Each caller
 * applies its own bounds.
 */
export function numberOption(value: unknown, fallback: number): number {
	const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
	return Number.isFinite(n) ? n : fallback;
}
