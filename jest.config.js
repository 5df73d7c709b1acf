// Two suites, told apart by the file name alone:
//   fast (`npm test`): every test/**/*.test.ts but the long ones, in about a minute;
//   long (`npm run test:long`, .ci/run and CI run it too): files named *.long.test.ts, the
//   property tests with many cases, soaks, scripted days and whatever starts processes of its own.
// A file moves from one to the other by its name. `npx jest <paths>` runs any file of either;
// plain `npx jest` runs both.
const LONG = '\\.long\\.test\\.ts$';

const shared = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
	},
	setupFiles: [],
	// After the framework is installed, so that it can remove its temporary n8n folder in afterAll.
	setupFilesAfterEnv: ['<rootDir>/test/setup-env.ts'],
};

/** @type {import('jest').Config} */
module.exports = {
	projects: [
		{ ...shared, displayName: 'fast', testMatch: ['**/*.test.ts'], testPathIgnorePatterns: ['/node_modules/', LONG] },
		{ ...shared, displayName: 'long', testMatch: ['**/*.long.test.ts'] },
	],
	// No test waits in real time (clocks and sleeps are injected), so a test's time is CPU work
	// alone, and a loaded machine only stretches it: the slowest took 23 s on 2 cores busy with
	// other work (a load average of 10). A limit near that would fail tests for the machine's
	// speed; this one is there to name a test that hangs (an awaited event that never comes), and
	// nothing else reaches it. A file must not set a lower one. `npm run soak` raises it with the
	// number of runs.
	testTimeout: 10 * 60_000,
	// Jest's default is one worker per core less one: a single worker, every file in turn, on a
	// 2-core machine. Files are independent (each starts its own servers on free ports).
	maxWorkers: '100%',
	reporters: ['default', '<rootDir>/test/summaryReporter.js'],
};
