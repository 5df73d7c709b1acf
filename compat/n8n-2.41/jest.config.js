// The node and trigger tests of the fast suite again, with n8n-core and n8n-workflow of n8n 2.41
// in place of the pinned 2.8 line, so the code is shown to run on the newest n8n as well. The
// long suite's files (*.long.test.ts) call n8n the same way with more cases, and are not repeated.
const path = require('path');
const base = require('../../jest.config.js');

const modules = path.join(__dirname, 'node_modules');
const { projects, ...global } = base;
const fast = projects.find((project) => project.displayName === 'fast');

module.exports = {
	...global,
	...fast,
	displayName: 'n8n 2.41',
	rootDir: path.join(__dirname, '..', '..'),
	testMatch: ['<rootDir>/test/node/**/*.test.ts', '<rootDir>/test/trigger/**/*.test.ts'],
	setupFiles: [...fast.setupFiles, path.join(__dirname, 'assertVersions.js')],
	moduleNameMapper: {
		'^n8n-workflow$': `${modules}/n8n-workflow`,
		'^n8n-workflow/(.*)$': `${modules}/n8n-workflow/$1`,
		'^n8n-core$': `${modules}/n8n-core`,
		'^n8n-core/(.*)$': `${modules}/n8n-core/$1`,
		'^@n8n/(di|backend-common|config|constants|decorators|errors)$': `${modules}/@n8n/$1`,
	},
};
