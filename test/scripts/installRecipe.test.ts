import { execFileSync } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// The e2e and `npm run dev` install the package with the README's own recipe (scripts/e2e/install-recipe.mjs
// takes it from README.md); these checks fail here, in `npm test`, before the e2e would.
const repo = join(__dirname, '..', '..');
const script = join(repo, 'scripts', 'e2e', 'install-recipe.mjs');
const recipeOf = (readmeFile: string, tarball: string) => execFileSync('node', [script, readmeFile, tarball], { encoding: 'utf8' });

/** A package named as ours, packed with tar as npm packs it: nothing to build, nothing to fetch. */
function packStandIn(folder: string, version: string): string {
	const source = join(folder, `stand-in-${version}`);
	mkdirSync(join(source, 'package'), { recursive: true });
	writeFileSync(join(source, 'package', 'package.json'), JSON.stringify({ name: 'n8n-nodes-job-search', version }));
	const tarball = join(folder, `n8n-nodes-job-search-${version}.tgz`);
	execFileSync('tar', ['-czf', tarball, '-C', source, 'package']);
	return tarball;
}

/**
 * Runs the README's block as a reader's shell does, with HOME set to `home`: offline with a cache
 * of its own (so it cannot reach the registry or touch the machine's cache), and without the
 * npm_config_* that `npm test` exports (this repository's settings are not the reader's).
 */
function runRecipe(home: string, tarball: string): void {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env)) if (!/^npm_config_/i.test(name)) env[name] = value;
	Object.assign(env, {
		HOME: home,
		npm_config_cache: join(home, '..', 'npm-cache'),
		npm_config_userconfig: join(home, '..', 'no-npmrc'),
		npm_config_offline: 'true',
		npm_config_audit: 'false',
		npm_config_fund: 'false',
		npm_config_update_notifier: 'false',
	});
	const commands = recipeOf(join(repo, 'README.md'), tarball);
	execFileSync('bash', ['-euo', 'pipefail', '-c', commands], { cwd: home, env, stdio: 'pipe' });
}

describe("the README's install recipe for a local build", () => {
	it('installs the tarball into ~/.n8n/nodes without peer dependencies, as n8n’s installer does', () => {
		const commands = recipeOf(join(repo, 'README.md'), "/tmp/it's here/n8n-nodes-job-search-0.1.0.tgz");
		expect(commands).toContain('cd ~/.n8n/nodes');
		expect(commands).toMatch(/^npm install --omit=peer '\/tmp\/it'\\''s here\/n8n-nodes-job-search-0\.1\.0\.tgz'$/m);
	});

	it('puts the package where n8n loads it when the home and the folder above it hold a package.json, and a second run replaces it', () => {
		const folder = mkdtempSync(join(tmpdir(), 'install-recipe-home-'));
		try {
			const home = join(folder, 'home');
			mkdirSync(home);
			const stray = JSON.stringify({ name: 'stray', private: true });
			writeFileSync(join(folder, 'package.json'), stray);
			writeFileSync(join(home, 'package.json'), stray);
			const installed = join(home, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-job-search', 'package.json');

			const first = packStandIn(folder, '0.1.0');
			runRecipe(home, first);
			expect(JSON.parse(readFileSync(installed, 'utf8')).version).toBe('0.1.0');
			// After a change the reader packs again and runs the block again; the first tarball may be gone.
			rmSync(first);
			runRecipe(home, packStandIn(folder, '0.1.1'));
			expect(JSON.parse(readFileSync(installed, 'utf8')).version).toBe('0.1.1');

			expect([folder, home].filter((above) => existsSync(join(above, 'node_modules')))).toEqual([]);
			for (const above of [folder, home]) expect(readFileSync(join(above, 'package.json'), 'utf8')).toBe(stray);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
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
