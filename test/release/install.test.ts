import { readFileSync } from 'fs';
import { join } from 'path';

const repo = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(repo, file), 'utf8');

describe('npm install of the repository', () => {
	it('leaves peers to the packages that depend on them: no ERESOLVE block, no unused model SDK installed', () => {
		// The lint tool's AI SDK asks for LangChain peers that contradict each other; resolving them
		// printed some forty lines of warnings and installed about fifty packages nothing here uses.
		expect(read('.npmrc')).toMatch(/^legacy-peer-deps=true$/m);
		const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { peer?: boolean }> };
		expect(Object.entries(lock.packages).filter(([, entry]) => entry.peer === true).map(([path]) => path)).toEqual([]);
	});

	it('quiets it with npm config, not with overrides, which n8n\'s scanner refuses in package.json', () => {
		expect(JSON.parse(read('package.json'))).not.toHaveProperty('overrides');
	});
});
