import { readFileSync } from 'fs';
import { join } from 'path';

import { FILTERS } from '../../nodes/JobSearch/filters';
import { FILTER_REFERENCE, renderFilterTable, withFilterTable } from '../../scripts/filterTable';

describe(`the filter table of ${FILTER_REFERENCE}`, () => {
	const reference = readFileSync(join(__dirname, '..', '..', FILTER_REFERENCE), 'utf8');

	it('is what the schema generates today (run `npm run docs` when this fails)', () => {
		expect(withFilterTable(reference)).toBe(reference);
	});

	it('is linked from the README', () => {
		expect(readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8')).toContain(`](${FILTER_REFERENCE})`);
	});

	it('lists every wire key of the schema', () => {
		const table = renderFilterTable();
		for (const f of FILTERS) expect(table).toContain(`| \`${f.key}\` |`);
	});
});

describe('the filter count in texts that cannot be built from the schema', () => {
	it.each([
		['README.md', (text: string) => text],
		[FILTER_REFERENCE, (text: string) => text],
		['package.json', (text: string) => (JSON.parse(text) as { description: string }).description],
	])('%s names the schema\'s own number of filters', (file, textOf) => {
		const text = textOf(readFileSync(join(__dirname, '..', '..', file), 'utf8'));
		const counts = [...text.matchAll(/(\d+) filters/g)].map((m) => Number(m[1]));
		expect(counts.length).toBeGreaterThan(0);
		expect(counts.every((n) => n === FILTERS.length)).toBe(true);
	});
});
