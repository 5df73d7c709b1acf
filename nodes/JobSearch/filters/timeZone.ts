const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/;

/** How far `timeZone`'s wall clock is ahead of UTC at the instant `utcMs`, in ms. */
function offsetMs(utcMs: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(utcMs));
	const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
	const wallAsUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
	return wallAsUtc - (utcMs - (((utcMs % 1000) + 1000) % 1000));
}

/**
 * A date and time without a zone, as n8n's date picker gives it ("2026-11-01T09:00:00"), read
 * as wall-clock time in the workflow's time zone. Undefined when it is not such a string or
 * the zone is unknown, so the caller can fall back.
 */
export function wallClockToUtcMs(value: string, timeZone: string): number | undefined {
	const m = WALL_CLOCK.exec(value);
	if (!m) return undefined;
	const [, y, mo, d, h, mi, s = '0', frac = ''] = m;
	const asUtc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, Math.round(Number(`0${frac}`) * 1000));
	if (Number.isNaN(asUtc)) return undefined;
	try {
		// Twice, because the offset at the guessed instant can differ across a DST change.
		const first = asUtc - offsetMs(asUtc, timeZone);
		return asUtc - offsetMs(first, timeZone);
	} catch {
		return undefined;
	}
}
