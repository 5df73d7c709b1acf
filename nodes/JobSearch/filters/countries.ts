const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function comparable(text: string): string {
	return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
}

/**
 * The two-letter code of a country typed by its English name ("Germany", "united states"), or a
 * code typed in lower case; undefined when it names no country. The names come from the
 * runtime's own ICU data (Intl.DisplayNames), so the package ships no country table. Only
 * called to explain a refused value, so the 676 look-ups are not worth keeping between calls.
 */
export function countryCodeFor(text: string): string | undefined {
	const wanted = comparable(text);
	if (wanted === '') return undefined;
	if (/^[a-z]{2}$/.test(wanted)) return wanted.toUpperCase();
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
	for (const first of LETTERS) {
		for (const second of LETTERS) {
			// Retired codes carry their successor's name (DD is "Germany"): give the current one.
			if (isNamed(first + second)) return Intl.getCanonicalLocales(`und-${first}${second}`)[0].slice('und-'.length);
		}
	}
	return undefined;
}
