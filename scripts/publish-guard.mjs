// package.json's prepublishOnly. A version of a community node can be verified by n8n only if it
// was published from GitHub Actions with an npm provenance statement, and a version number, once
// used, can never be published again. So `npm publish` runs only inside .github/workflows/publish.yml,
// for the tag that names this very version; anywhere else (a laptop, another workflow) it stops.
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const ref = process.env.GITHUB_WORKFLOW_REF ?? '';
const expected = `/.github/workflows/publish.yml@refs/tags/v${version}`;

if (process.env.GITHUB_ACTIONS !== 'true' || !ref.endsWith(expected)) {
	const where = process.env.GITHUB_ACTIONS === 'true' ? `the workflow run ${ref || '(unknown)'}` : 'outside GitHub Actions';
	console.error(
		[
			`Not published: this is ${where}.`,
			`Versions are published only by .github/workflows/publish.yml, with npm provenance, when the tag v${version} is pushed:`,
			`  git tag v${version} && git push origin v${version}`,
			'See CONTRIBUTING.md, section Release.',
		].join('\n'),
	);
	process.exit(1);
}
