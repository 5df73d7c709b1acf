// The rules n8n's verification scanner runs on community packages, applied as it applies them:
// eslint-plugin-n8n-nodes-base (community on package.json, credentials, nodes) and
// @n8n/eslint-plugin-community-nodes (recommended) on nodes/ and credentials/.
import tseslint from 'typescript-eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

const shippedSources = ['nodes/**/*.ts', 'credentials/**/*.ts'];

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
	{
		files: ['**/*.ts'],
		extends: [tseslint.configs.recommended],
		languageOptions: { parser: tseslint.parser, parserOptions: { sourceType: 'module' } },
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
		plugins: { 'n8n-nodes-base': n8nNodesBase, '@n8n/community-nodes': n8nCommunityNodesPlugin },
		rules: {
			...n8nNodesBase.configs.community.rules,
			...n8nCommunityNodesPlugin.configs.recommended.rules,
		},
	},
	{
		files: shippedSources,
		plugins: { '@n8n/community-nodes': n8nCommunityNodesPlugin },
		rules: n8nCommunityNodesPlugin.configs.recommended.rules,
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.credentials.rules,
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.nodes.rules,
	},
	{
		// Dev-only code (never published) may use Node built-ins and timers freely.
		files: ['server/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
);
