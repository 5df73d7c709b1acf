import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { createManualClock, startServer, type RunningServer, type StartServerOptions } from '../../server';

/** A fixed instant so every run sees the same search windows. */
export const T0 = Date.parse('2026-11-20T12:00:00.000Z');

export interface TestServer {
	server: RunningServer;
	clock: ReturnType<typeof createManualClock>;
	http: AxiosInstance;
	/** POST /v1/<tool> with a key; never throws on a status. */
	call(tool: string, body: unknown, key: string, headers?: Record<string, string>): Promise<AxiosResponse>;
}

export async function startTestServer(options: StartServerOptions = {}): Promise<TestServer> {
	const clock = createManualClock(T0);
	const server = await startServer({ jobs: 200, clock, ...options });
	const http = axios.create({ baseURL: server.url, validateStatus: () => true, transitional: { clarifyTimeoutError: true } });
	return {
		server,
		clock,
		http,
		call: (tool, body, key, headers = {}) =>
			http.post(`/v1/${tool}`, body, { headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers } }),
	};
}

export const USD = 100_000_000;
