/**
 * `html` and `empty` answer 200 with what a broken proxy or a maintenance page sends (an HTML page,
 * `{}`): not the service's envelope, which a client must not take for an empty result.
 */
export type FaultKind = '500' | 'drop' | 'delay' | 'html' | 'empty';

export interface Fault {
	kind: FaultKind;
	delayMs?: number;
	/** How many matching requests it hits; 1 by default. */
	times?: number;
	/** Only requests for this tool; any request to /v1 or /mcp when absent. */
	tool?: string;
}

export interface DueFault {
	kind: FaultKind;
	delayMs: number;
}

const DEFAULT_DELAY_MS = 1000;

/** `X-Fault: 500` | `drop` | `html` | `empty` | `delay=<ms>`; anything else is ignored rather than guessed at. */
export function parseFaultHeader(value: string | string[] | undefined): DueFault | undefined {
	const text = (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase();
	if (text === '500') return { kind: '500', delayMs: 0 };
	if (text === 'drop') return { kind: 'drop', delayMs: 0 };
	if (text === 'html') return { kind: 'html', delayMs: 0 };
	if (text === 'empty') return { kind: 'empty', delayMs: 0 };
	const delay = text && /^delay(?:=(\d+))?$/.exec(text);
	if (delay) return { kind: 'delay', delayMs: delay[1] ? Number(delay[1]) : DEFAULT_DELAY_MS };
	return undefined;
}

/** Faults armed from the admin side, for tests that cannot set a header on the node's requests. */
export class FaultQueue {
	private armed: (Fault & { left: number })[] = [];

	inject(fault: Fault): void {
		if (!['500', 'drop', 'delay', 'html', 'empty'].includes(fault.kind)) throw new Error(`unknown fault kind ${String(fault.kind)}`);
		this.armed.push({ ...fault, left: fault.times ?? 1 });
	}

	clear(): void {
		this.armed = [];
	}

	take(tool: string | undefined): DueFault | undefined {
		const index = this.armed.findIndex((f) => f.tool === undefined || f.tool === tool);
		if (index < 0) return undefined;
		const fault = this.armed[index];
		if (--fault.left <= 0) this.armed.splice(index, 1);
		return { kind: fault.kind, delayMs: fault.delayMs ?? DEFAULT_DELAY_MS };
	}
}
