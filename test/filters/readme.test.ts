import { readFileSync } from 'fs';
import { join } from 'path';

import { FILTERS } from '../../nodes/JobSearch/filters';
import { renderFilterTable, withFilterTable } from '../../scripts/filterTable';

describe('the README filter table', () => {
	const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

	it('is what the schema generates today (run `npm run docs` when this fails)', () => {
		expect(withFilterTable(readme)).toBe(readme);
	});

	it('lists every wire key of the schema', () => {
		const table = renderFilterTable();
		for (const f of FILTERS) expect(table).toContain(`| \`${f.key}\` |`);
	});
});
