// The README's install recipe for a local build, as the e2e and `npm run dev` run it: the shell
// block after the INSTALL_RECIPE marker in README.md, with the tarball's path put in place of
// TARBALL_PLACEHOLDER. Taken from the README itself, so the recipe a reader copies is the one
// the e2e proves in a real n8n, and cannot drift from it.
//   node scripts/e2e/install-recipe.mjs <README.md> <tarball>   prints the commands
import { readFileSync } from 'fs';
import { fileURLToPath } from 'url';

export const INSTALL_RECIPE = '<!-- install-recipe:';
export const TARBALL_PLACEHOLDER = '/path/to/n8n-nodes-job-search-<version>.tgz';

export function installRecipe(readme, tarball) {
	const lines = readme.split('\n');
	const marker = lines.findIndex((line) => line.startsWith(INSTALL_RECIPE));
	if (marker < 0) throw new Error(`README.md has no "${INSTALL_RECIPE}" marker before the install recipe`);
	const open = marker + 1;
	if (lines[open] !== '```bash') throw new Error('the install-recipe marker must be followed by a ```bash block');
	const close = lines.indexOf('```', open + 1);
	if (close < 0) throw new Error('the install recipe block is not closed');
	const commands = lines.slice(open + 1, close).join('\n');
	if (commands.split(TARBALL_PLACEHOLDER).length !== 2) {
		throw new Error(`the install recipe must name the tarball once, as ${TARBALL_PLACEHOLDER}`);
	}
	return commands.replace(TARBALL_PLACEHOLDER, `'${tarball.replace(/'/g, `'\\''`)}'`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const [readmeFile, tarball] = process.argv.slice(2);
	process.stdout.write(`${installRecipe(readFileSync(readmeFile, 'utf8'), tarball)}\n`);
}
