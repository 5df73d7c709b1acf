const DAY_MS = 24 * 60 * 60 * 1000;
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/;

function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
	return new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	});
}

/** How far the zone's wall clock is ahead of UTC at the instant `utcMs`, in ms. */
function offsetMs(utcMs: number, format: Intl.DateTimeFormat): number {
	const parts = format.formatToParts(new Date(utcMs));
	const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
	const wallAsUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
	return wallAsUtc - (utcMs - (((utcMs % 1000) + 1000) % 1000));
}

/**
 * A date and time without a zone, as n8n's date picker gives it ("2026-11-01T09:00:00"), read
 * as wall-clock time in the workflow's time zone. Undefined when it is not such a string, names
 * a moment that no calendar has (month 13, 09:60), or the zone is unknown: the caller then
 * leaves it for validation to name, or falls back.
 */
export function wallClockToUtcMs(value: string, timeZone: string): number | undefined {
	const m = WALL_CLOCK.exec(value);
	if (!m) return undefined;
	const [y, mo, d, h, mi, s] = m.slice(1, 7).map((part) => Number(part ?? 0));
	const wallAsUtc = Date.UTC(y, mo - 1, d, h, mi, s, Math.round(Number(`0${m[7] ?? ''}`) * 1000));
	// Date.UTC rolls month 13 into next year and 09:60 into 10:00; such input must stay invalid.
	const back = new Date(wallAsUtc);
	const sameParts = [back.getUTCFullYear(), back.getUTCMonth() + 1, back.getUTCDate(), back.getUTCHours(), back.getUTCMinutes(), back.getUTCSeconds()];
	if (sameParts.some((part, i) => part !== [y, mo, d, h, mi, s][i])) return undefined;
	try {
		const format = wallClockFormat(timeZone);
		// The zone's offsets a day either side cover both sides of any clock change near this time.
		const before = offsetMs(wallAsUtc - DAY_MS, format);
		const after = offsetMs(wallAsUtc + DAY_MS, format);
		const fits = [wallAsUtc - before, wallAsUtc - after].filter((utc) => offsetMs(utc, format) === wallAsUtc - utc);
		// As JavaScript's Temporal does by default ("compatible"): a time the clocks pass twice is
		// its first occurrence, one they skip moves forward by the size of the gap.
		return fits.length > 0 ? Math.min(...fits) : wallAsUtc - before;
	} catch {
		return undefined;
	}
}
