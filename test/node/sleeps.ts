/**
 * The waits the node asks n8n-workflow's `sleep` for, when a test file replaces `sleep` with
 * `recordingSleep` (jest.mock): the waits are what the code controls, and no test waits them out.
 *
 *   jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));
 */
const waits: number[] = [];

export async function recordingSleep(ms: number): Promise<void> {
	waits.push(ms);
	// Let other work run, as a real wait would, without the time passing.
	await new Promise<void>((resolve) => setImmediate(resolve));
}

/** The waits asked for since the last call, in order. */
export function takeWaits(): number[] {
	return waits.splice(0, waits.length);
}
