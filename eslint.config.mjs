// The rules n8n's verification scanner (@n8n/scan-community-package) runs on community
// packages, wired as it wires them: @n8n/eslint-plugin-community-nodes recommended plus
// `no-console` on package.json and everything under nodes/ and credentials/ (TypeScript and
// JSON), and the three rule sets of eslint-plugin-n8n-nodes-base with the scanner's own
// off-overrides. Dev-only code (server/, test/, bench/, scripts/) gets typescript-eslint only.
import tseslint from 'typescript-eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

const shipped = ['package.json', 'nodes/**/*.{ts,json}', 'credentials/**/*.{ts,json}'];

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/package-lock.json'] },
	{
		files: ['**/*.ts'],
		extends: [tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
	{
		files: ['**/*.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
	},
	{
		files: shipped,
		plugins: { '@n8n/community-nodes': n8nCommunityNodesPlugin, 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nCommunityNodesPlugin.configs.recommended.rules, 'no-console': 'error' },
	},
	{
		files: ['package.json'],
		rules: n8nNodesBase.configs.community.rules,
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{
		files: ['server/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
);
