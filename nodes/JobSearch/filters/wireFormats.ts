/**
 * The shapes of wire values that JSON Schema expresses as patterns. The same regular expressions
 * serve the JSON Schema (server, MCP) and the node's pre-flight check, so the two cannot drift.
 */

/** USD amounts go out as strings of a non-negative decimal, e.g. "25" or "25.5". */
export const MONEY_PATTERN = '^(0|[1-9][0-9]*)(\\.[0-9]+)?$';

/** ISO 3166-1 alpha-2, upper case. */
export const COUNTRY_CODE_PATTERN = '^[A-Z]{2}$';

/** RFC 3339 date-time with a zone, the shape JSON Schema's `date-time` format accepts. */
export const DATE_TIME_PATTERN =
	'^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$';

/** A job uid is a string of digits. */
export const JOB_UID_PATTERN = '^[0-9]+$';

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether the fields of a string that already matches DATE_TIME_PATTERN are in range.
 * Deliberately no stricter than JSON Schema's date-time format (leap seconds pass), so the
 * node never refuses what the server would accept.
 */
export function isCalendarValid(value: string): boolean {
	const [year, month, day, hour, minute, second] = value.match(/\d+/g)!.slice(0, 6).map(Number);
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	const maxDay = month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1];
	return (
		month >= 1 && month <= 12 && day >= 1 && day <= maxDay && hour <= 23 && minute <= 59 && second <= 60
	);
}
