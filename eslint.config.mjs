// n8n's own lint config (what `n8n-node lint` and the verification scanner apply), unchanged for
// what ships: package.json, nodes/ and credentials/. Its rules ban Node's built-ins, process,
// timers and console, which the dev-only code (the reference server, tests, benchmarks and
// scripts) needs, so that code is kept out of n8n's blocks and gets rules of its own below.
// Because of that split, package.json has `"n8n": { "strict": false }`: see CONTRIBUTING.md.
import { config as n8nConfig } from '@n8n/node-cli/eslint';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tseslint from 'typescript-eslint';

const devOnly = ['server/**', 'test/**', 'bench/**', 'scripts/**', 'compat/**'];

/** A block with nothing but ignores (and a name) ignores files everywhere: it stays as it is. */
const isGlobalIgnore = (block) => Object.keys(block).every((key) => key === 'ignores' || key === 'name');

/** n8n's blocks as they are, each told to skip the dev-only folders. */
const n8nForShippedCode = n8nConfig.map((block) =>
	isGlobalIgnore(block) ? block : { ...block, ignores: [...(block.ignores ?? []), ...devOnly] },
);

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.dev/**', '**/*.js', '**/*.mjs'] },
	...n8nForShippedCode,
	{
		// The codex files ship too; the scanner lints them with the community rules.
		files: ['nodes/**/*.json', 'credentials/**/*.json'],
		plugins: { '@n8n/community-nodes': n8nCommunityNodesPlugin },
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
		rules: n8nCommunityNodesPlugin.configs.recommended.rules,
	},
	{
		files: devOnly.map((dir) => `${dir}/*.ts`),
		extends: [tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'@typescript-eslint/no-explicit-any': 'off',
		},
	},
);
