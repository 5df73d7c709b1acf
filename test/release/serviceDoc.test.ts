import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import { join } from 'path';

const repo = join(__dirname, '..', '..');
const tracked = execFileSync('git', ['ls-files'], { cwd: repo, encoding: 'utf8' })
	.split('\n')
	.filter((path) => /\.(ts|mjs|js|md|sh|json)$/.test(path) && !path.endsWith('package-lock.json'));
const text = (path: string) => readFileSync(join(repo, path), 'utf8');
const anchors = new Set([...text('docs/service.md').matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]));

describe('docs/service.md, the service contract in the repository', () => {
	it('is what the code and the README cite, by anchors that exist', () => {
		const cited = tracked.flatMap((path) =>
			[...text(path).matchAll(/docs\/service\.md#([\w-]+)((?:, #[\w-]+)*)/g)].flatMap((m) => [m[1], ...m[2].split(', #').filter(Boolean)].map((anchor) => `${path}#${anchor}`)),
		);
		expect(cited.length).toBeGreaterThan(10);
		expect(cited.filter((c) => !anchors.has(c.split('#')[1]))).toEqual([]);
	});

	it('replaces every citation of documents a clone of the repository does not have', () => {
		const outside = /service-spec\.md|service-facts|decision B\d|\bspec \d|\(A\d\)|section \d\b/;
		const citing = tracked.filter((path) => !path.startsWith('test/release/') && outside.test(text(path)));
		expect(citing).toEqual([]);
	});
});
