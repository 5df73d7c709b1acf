import type { Server } from 'http';
import type { AddressInfo } from 'net';

export interface Listening {
	url: string;
	close(): Promise<void>;
}

/** Starts a test HTTP server on a free loopback port; close() also drops kept-alive sockets. */
export async function listenOnLoopback(server: Server): Promise<Listening> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
