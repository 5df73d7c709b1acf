/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
	},
	setupFiles: [],
	// After the framework is installed, so that it can remove its temporary n8n folder in afterAll.
	setupFilesAfterEnv: ['<rootDir>/test/setup-env.ts'],
	testTimeout: 30000,
	// Jest's default is one worker per core less one: a single worker, every file in turn, on a
	// 2-core machine. Files are independent (each starts its own servers on free ports).
	maxWorkers: '100%',
	reporters: ['default', '<rootDir>/test/summaryReporter.js'],
};
