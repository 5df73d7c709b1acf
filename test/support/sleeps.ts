/**
 * The waits the node asks n8n-workflow's `sleep` for, when a test file replaces `sleep` with
 * `recordingSleep` (jest.mock): the waits are what the code controls, and no test waits them out.
 *
 *   jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: recordingSleep }));
 */
const waits: number[] = [];
let passTime: ((ms: number) => void) | undefined;

export async function recordingSleep(ms: number): Promise<void> {
	waits.push(ms);
	passTime?.(ms);
	// Let other work run, as a real wait would, without the time passing.
	await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * From now on each recorded wait moves `clock` on by what it asked, as a real wait would move the
 * real one: a server on this manual clock sees the time pass (a rate-limit window end, say).
 */
export function waitsMove(clock: { advance(ms: number): void }): void {
	passTime = (ms) => clock.advance(ms);
}

/** The waits asked for since the last call, in order. */
export function takeWaits(): number[] {
	return waits.splice(0, waits.length);
}
