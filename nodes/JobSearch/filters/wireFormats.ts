/**
 * The shapes of wire values that JSON Schema expresses as patterns. The same regular expressions
 * serve the JSON Schema (server, MCP) and the node's pre-flight check, so the two cannot drift.
 */

/** USD amounts go out as strings of a non-negative decimal, e.g. "25" or "25.5". */
export const MONEY_PATTERN = '^(0|[1-9][0-9]*)(\\.[0-9]+)?$';

/**
 * ISO 3166-1 alpha-2: the 249 codes assigned to a country or territory, upper case. Two capitals
 * are not enough: "UK" looks like a code and matches no job (the United Kingdom is GB).
 */
export const COUNTRY_CODES: readonly string[] = (
	'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS ' +
	'BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE ' +
	'EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM ' +
	'HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC ' +
	'LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA ' +
	'NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
	'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO ' +
	'TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

/**
 * The dates and times the service takes, in ISO 8601: a date alone ("2026-11-26", that day at
 * 00:00 UTC), or a date and time with or without a zone ("2026-11-26T08:00:00Z",
 * "2026-11-26 08:00"); seconds and fractions optional. A time without a zone is UTC on the wire
 * (the node sends every time with one, having read a zone-less time in the workflow's zone). No
 * leap second (23:59:60): the service's clock has none, and a moment it cannot place must be
 * refused rather than silently ignored (which would widen a paid search).
 */
export const DATE_TIME_PATTERN =
	'^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]+)?)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?)?$';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_ZONE = /([Zz]|[+-]\d{2}:\d{2})$/;

/** What the accepted shapes are, in the words every refusal of a date uses. */
export const DATE_TIME_ACCEPTED =
	'a date such as 2026-11-26 (that day at 00:00 UTC) or a date and time such as 2026-11-26T08:00:00Z (without a zone: the workflow\'s time zone in n8n, UTC through the API)';

/**
 * The moment a value matching DATE_TIME_PATTERN names, as the service reads it: a date alone at
 * 00:00 UTC, a time without a zone in UTC. NaN for a day no calendar has.
 */
export function wireDateToUtcMs(value: string): number {
	if (!isCalendarValid(value)) return Number.NaN;
	if (HAS_ZONE.test(value) && !DATE_ONLY.test(value)) return Date.parse(value.replace(' ', 'T'));
	// Counted from its parts, not with Date.parse, which reads a zone-less time in the machine's zone.
	const [year, month, day, hour = 0, minute = 0, second = 0] = value.match(/\d+/g)!.slice(0, 6).map(Number);
	const fraction = /:\d{2}(\.\d+)/.exec(value)?.[1] ?? '';
	return Date.UTC(year, month - 1, day, hour, minute, second) + Math.round(Number(`0${fraction}`) * 1000);
}

/** A job uid is a string of digits. */
export const JOB_UID_PATTERN = '^[0-9]+$';

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether the fields of a string that already matches DATE_TIME_PATTERN are in range (no 30
 * February), so the node never refuses what the server would accept nor sends what it would refuse.
 */
export function isCalendarValid(value: string): boolean {
	const [year, month, day, hour = 0, minute = 0, second = 0] = value.match(/\d+/g)!.slice(0, 6).map(Number);
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	const maxDay = month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1];
	return (
		month >= 1 && month <= 12 && day >= 1 && day <= maxDay && hour <= 23 && minute <= 59 && second <= 59
	);
}
