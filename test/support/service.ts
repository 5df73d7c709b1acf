import { startServer, type RunningServer, type StartServerOptions } from '../../server';
import type { HarnessCredentials } from '../harness';

// The reference server a test file runs the nodes against, with fresh accounts on demand.

export interface TestService {
	server: RunningServer;
	/** Credentials of a fresh account of the given plan. */
	account(plan: 'free' | 'pro' | 'enterprise', balance?: { poolMicrocents?: number; packMicrocents?: number }): Promise<{
		id: string;
		key: string;
		credentials: HarnessCredentials;
	}>;
}

export async function startTestService(options: StartServerOptions = {}): Promise<TestService> {
	const server = await startServer({ jobs: 300, ...options });
	let counter = 0;
	return {
		server,
		account: async (plan, balance = {}) => {
			const { id, key } = await server.admin.createAccount({ id: `acct-${plan}-${++counter}`, plan, ...balance });
			return { id, key, credentials: { apiKey: key, baseUrl: server.url } };
		},
	};
}

/**
 * One reference server for the whole test file (or describe block): started before its first test
 * and closed after its last. Call it where `beforeAll` may be called; use the result in tests.
 */
export function useTestService(options: StartServerOptions = {}): TestService {
	let started: TestService | undefined;
	beforeAll(async () => {
		started = await startTestService(options);
	});
	afterAll(async () => await started?.server.close());
	const running = (): TestService => {
		if (!started) throw new Error('useTestService: the service starts in beforeAll; use it inside a test or a hook');
		return started;
	};
	return {
		get server() {
			return running().server;
		},
		account: async (plan, balance) => await running().account(plan, balance),
	};
}
