// The node and trigger suites again, with n8n-core and n8n-workflow of n8n 2.41 in place of the
// pinned 2.8 line, so the code is shown to run on the newest n8n as well.
const path = require('path');
const base = require('../../jest.config.js');

const modules = path.join(__dirname, 'node_modules');

module.exports = {
	...base,
	rootDir: path.join(__dirname, '..', '..'),
	testMatch: ['<rootDir>/test/node/**/*.test.ts', '<rootDir>/test/trigger/**/*.test.ts'],
	setupFiles: [...base.setupFiles, path.join(__dirname, 'assertVersions.js')],
	moduleNameMapper: {
		'^n8n-workflow$': `${modules}/n8n-workflow`,
		'^n8n-workflow/(.*)$': `${modules}/n8n-workflow/$1`,
		'^n8n-core$': `${modules}/n8n-core`,
		'^n8n-core/(.*)$': `${modules}/n8n-core/$1`,
		'^@n8n/(di|backend-common|config|constants|decorators|errors)$': `${modules}/@n8n/$1`,
	},
};
