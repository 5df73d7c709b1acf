/**
 * The shapes of wire values that JSON Schema expresses as patterns. The same regular expressions
 * serve the JSON Schema (server, MCP) and the node's pre-flight check, so the two cannot drift.
 */

/** USD amounts go out as strings of a non-negative decimal, e.g. "25" or "25.5". */
export const MONEY_PATTERN = '^(0|[1-9][0-9]*)(\\.[0-9]+)?$';

/** ISO 3166-1 alpha-2, upper case. */
export const COUNTRY_CODE_PATTERN = '^[A-Z]{2}$';

/**
 * RFC 3339 date-time with a zone, the shape JSON Schema's `date-time` format accepts, without the
 * leap second (23:59:60): the service's clock has none, and a moment it cannot place must be
 * refused rather than silently ignored (which would widen a paid search).
 */
export const DATE_TIME_PATTERN =
	'^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ]([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$';

/** A job uid is a string of digits. */
export const JOB_UID_PATTERN = '^[0-9]+$';

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether the fields of a string that already matches DATE_TIME_PATTERN are in range, as
 * the server's schema checks them (no leap second), so the node never refuses what the server
 * would accept nor sends what it would refuse.
 */
export function isCalendarValid(value: string): boolean {
	const [year, month, day, hour, minute, second] = value.match(/\d+/g)!.slice(0, 6).map(Number);
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	const maxDay = month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1];
	return (
		month >= 1 && month <= 12 && day >= 1 && day <= maxDay && hour <= 23 && minute <= 59 && second <= 59
	);
}
