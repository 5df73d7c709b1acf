import { execFileSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// The e2e and `npm run dev` install the package with the README's own recipe (scripts/e2e/install-recipe.mjs
// takes it from README.md); these checks fail here, in `npm test`, before the e2e would.
const repo = join(__dirname, '..', '..');
const script = join(repo, 'scripts', 'e2e', 'install-recipe.mjs');
const recipeOf = (readmeFile: string, tarball: string) => execFileSync('node', [script, readmeFile, tarball], { encoding: 'utf8' });

describe("the README's install recipe for a local build", () => {
	it('installs the tarball into ~/.n8n/nodes without peer dependencies, as n8n’s installer does', () => {
		const commands = recipeOf(join(repo, 'README.md'), "/tmp/it's here/n8n-nodes-job-search-0.1.0.tgz");
		expect(commands).toContain('cd ~/.n8n/nodes');
		expect(commands).toMatch(/^npm install --omit=peer '\/tmp\/it'\\''s here\/n8n-nodes-job-search-0\.1\.0\.tgz'$/m);
	});

	it('is refused when the README loses the marker or names the tarball otherwise, so the e2e cannot run another recipe', () => {
		const readme = readFileSync(join(repo, 'README.md'), 'utf8');
		const folder = mkdtempSync(join(tmpdir(), 'install-recipe-'));
		try {
			for (const spoilt of [readme.replace('<!-- install-recipe:', '<!-- '), readme.replace('/path/to/n8n-nodes-job-search-<version>.tgz', 'the.tgz')]) {
				writeFileSync(join(folder, 'README.md'), spoilt);
				expect(() => execFileSync('node', [script, join(folder, 'README.md'), '/x.tgz'], { stdio: 'pipe' })).toThrow();
			}
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});
});
