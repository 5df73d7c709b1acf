import { dirname, join } from 'path';

type Sleep = (ms: number) => Promise<void>;

/**
 * Makes n8n-workflow's `sleep` move a fake clock instead of waiting, for code that cannot use
 * jest.mock (the bench): every wait the node asks for passes at once and `advance` moves the
 * clock it reads by as much. n8n-workflow's index re-exports `sleep` through a getter over its
 * utils module, so replacing it there reaches every caller. Returns the undo.
 */
export async function moveTimeOnSleep(advance: (ms: number) => void): Promise<() => void> {
	const utils = (await import(join(dirname(require.resolve('n8n-workflow')), 'utils.js'))) as { sleep: Sleep };
	const real = utils.sleep;
	utils.sleep = async (ms: number) => {
		advance(ms);
		await new Promise<void>((resolve) => setImmediate(resolve));
	};
	return () => {
		utils.sleep = real;
	};
}
