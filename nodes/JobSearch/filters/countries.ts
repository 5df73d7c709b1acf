import { COUNTRY_CODES } from './wireFormats';

const ISO_CODES: ReadonlySet<string> = new Set(COUNTRY_CODES);

/**
 * Codes people write for a country that ISO 3166-1 spells otherwise and the runtime's region data
 * does not know as a former name: the European Union's own code for Greece.
 */
const OTHER_SPELLINGS: Readonly<Record<string, string>> = { EL: 'GR' };

export function isCountryCode(code: string): boolean {
	return ISO_CODES.has(code);
}

function comparable(text: string): string {
	return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
}

/**
 * The ISO code meant by two letters that are not one: "UK" is GB, and a retired code ("DD", "YU")
 * is its successor, as the runtime's own region data (CLDR) knows them; undefined when none is.
 */
function codeMeantBy(letters: string): string | undefined {
	if (ISO_CODES.has(letters)) return letters;
	if (OTHER_SPELLINGS[letters]) return OTHER_SPELLINGS[letters];
	try {
		const canonical = Intl.getCanonicalLocales(`und-${letters}`)[0].slice('und-'.length);
		return ISO_CODES.has(canonical) ? canonical : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The ISO 3166-1 code of a country typed by its English name ("Germany", "united states",
 * "UK"), or by two letters that are a code in another case or spelling ("de", "UK" → GB);
 * undefined when it names no country. The names come from the runtime's own ICU data
 * (Intl.DisplayNames), so the package ships no table of names. Only called to explain a refused
 * value, so the look-ups are not kept between calls.
 */
export function countryCodeFor(text: string): string | undefined {
	const wanted = comparable(text);
	if (wanted === '') return undefined;
	if (/^[a-z]{2}$/.test(wanted)) return codeMeantBy(wanted.toUpperCase());
	let names: Intl.DisplayNames[];
	try {
		names = ['long', 'short'].map(
			(style) => new Intl.DisplayNames(['en'], { type: 'region', style: style as 'long' | 'short', fallback: 'none' }),
		);
	} catch {
		return undefined; // a runtime without ICU region names: the message then suggests no code
	}
	// "Myanmar (Burma)" is also found as "Myanmar".
	const isNamed = (code: string) =>
		names.some((n) => {
			const name = n.of(code) ?? '';
			return comparable(name) === wanted || comparable(name.replace(/\s*\(.*\)$/, '')) === wanted;
		});
	return COUNTRY_CODES.find(isNamed);
}
