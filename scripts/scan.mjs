// `npm run scan`: n8n's own verification scanner (@n8n/scan-community-package), offline. Its CLI
// only scans published packages, so this runs its two legs directly: the source files it
// lints (package.json, nodes/, credentials/) and the compiled files of the `npm pack` tarball.
// Needs `npm run build` first.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'job-search-scan-'));
try {
	const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: repo, encoding: 'utf8' }).trim();
	execFileSync('tar', ['xzf', join(work, tarball), '-C', work]);
	const legs = [
		['source', await analyzePackage(repo, SOURCE_FILE_PATTERNS)],
		['npm pack tarball', await analyzePackage(join(work, 'package'), ['**/*.js', 'package.json'])],
	];
	for (const [name, result] of legs) {
		console.log(`scanner, ${name}: ${result.passed ? 'passed' : result.message}`);
		if (result.details) console.log(result.details);
	}
	process.exitCode = legs.every(([, result]) => result.passed) ? 0 : 1;
} finally {
	rmSync(work, { recursive: true, force: true });
}
