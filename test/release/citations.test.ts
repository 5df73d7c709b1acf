import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import { join } from 'path';

const repo = join(__dirname, '..', '..');
const self = 'test/release/citations.test.ts';

/** What the code, the tests, the server, the scripts and the benchmarks are made of, as tracked. */
const sources = execFileSync('git', ['ls-files', 'nodes', 'credentials', 'server', 'scripts', 'test', 'bench'], { cwd: repo, encoding: 'utf8' })
	.split('\n')
	.filter((path) => /\.(ts|mjs|js|sh|md)$/.test(path) && path !== self);

/**
 * A comment that points at the project's history instead of saying why: an issue or pull request
 * by number or as "the issue", a commit by its hash. A clone without the tracker cannot follow
 * them, and the reason they stand for is what the next reader needs.
 */
const CITATIONS: readonly RegExp[] = [
	/\b(?:issue|pull request|PR)\s*#?\d+/i,
	/\bissue's\b/i,
	/\b(?:the|this|that)\s+(?:[\w-]+\s+)?issue\b/i,
	/\bcommits?\s+[0-9a-f]{7,40}\b/i,
];

const citationIn = (line: string) => CITATIONS.some((pattern) => pattern.test(line));

describe('citations of issues and commits', () => {
	it('are recognised in the forms they have taken, and ordinary words are not', () => {
		const cited = ['// issue 17 promises', '# Issue #3: the e2e', "the issue's promise is 16 minutes", 'from the job-alert issue', 'The fix of commit 134ed9b', 'see PR 12'];
		const plain = ['const { body, issues } = filters();', 'issues.push(issue);', 'type FilterIssue = {};', 'so the last one and the commit fit in it', 'Issues a new key, shown once'];
		expect(cited.filter((line) => !citationIn(line))).toEqual([]);
		expect(plain.filter(citationIn)).toEqual([]);
	});

	it('stay out of nodes/, credentials/, server/, scripts/, test/ and bench/: a comment says why, in its own words', () => {
		expect(sources.length).toBeGreaterThan(100);
		const citing = sources.flatMap((path) =>
			readFileSync(join(repo, path), 'utf8')
				.split('\n')
				.flatMap((line, index) => (citationIn(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
		);
		expect(citing).toEqual([]);
	});
});
