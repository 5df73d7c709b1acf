import type { ServiceState } from './handlers';
import { seededRandom, type Random } from './random';

/**
 * `html` and `empty` answer 200 with what a broken proxy or a maintenance page sends (an HTML page,
 * `{}`): not the service's envelope, which a client must not take for an empty result. `429` is
 * the service's own rate-limit answer, as when other workflows on the same key used its window up.
 */
export type FaultKind = '500' | 'drop' | 'delay' | 'html' | 'empty' | '429';

export const FAULT_KINDS: readonly FaultKind[] = ['500', 'drop', 'delay', 'html', 'empty', '429'];

export interface Fault {
	kind: FaultKind;
	delayMs?: number;
	/** How many requests it hits; 1 by default, unlimited with `share` (until clearFaults). */
	times?: number;
	/** Only requests for this tool; any request to /v1 or /mcp when absent. */
	tool?: string;
	/** Only requests with this API key; any key when absent. */
	key?: string;
	/** Each matching request is hit with this chance (0 to 1), drawn from `seed`'s stream; every one when absent. */
	share?: number;
	/** Seed of `share`'s draws (default 1), so a run replays. */
	seed?: number;
	/** The wait a `429` asks for (default 20,000 ms); `Retry-After` is it in whole seconds, rounded up. */
	retryAfterMs?: number;
}

export interface DueFault {
	kind: FaultKind;
	delayMs: number;
	retryAfterMs: number;
}

const DEFAULT_DELAY_MS = 1000;
const DEFAULT_RETRY_AFTER_MS = 20_000;
const MAX_WAIT_MS = 3_600_000;

/** `X-Fault: 500` | `drop` | `html` | `empty` | `delay=<ms>`; anything else is ignored rather than guessed at. */
export function parseFaultHeader(value: string | string[] | undefined): DueFault | undefined {
	const text = (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase();
	const due = (kind: FaultKind, delayMs = 0): DueFault => ({ kind, delayMs, retryAfterMs: DEFAULT_RETRY_AFTER_MS });
	if (text === '500' || text === 'drop' || text === 'html' || text === 'empty') return due(text);
	const delay = text && /^delay(?:=(\d+))?$/.exec(text);
	if (delay) return due('delay', delay[1] ? Number(delay[1]) : DEFAULT_DELAY_MS);
	return undefined;
}

function checkFault(fault: Fault): void {
	if (!FAULT_KINDS.includes(fault.kind)) throw new Error(`unknown fault kind ${String(fault.kind)}; use one of ${FAULT_KINDS.join(', ')}`);
	const bounded = (name: string, value: unknown, min: number, max: number) => {
		if (value !== undefined && (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)) {
			throw new Error(`fault ${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
		}
	};
	bounded('times', fault.times, 1, Number.MAX_SAFE_INTEGER);
	bounded('delayMs', fault.delayMs, 0, MAX_WAIT_MS);
	bounded('retryAfterMs', fault.retryAfterMs, 1, MAX_WAIT_MS);
	bounded('seed', fault.seed, 0, 2 ** 32 - 1);
	if (fault.share !== undefined && (typeof fault.share !== 'number' || !(fault.share > 0 && fault.share <= 1))) {
		throw new Error(`fault share must be a number above 0 and at most 1, got ${String(fault.share)}`);
	}
	if (fault.tool !== undefined && typeof fault.tool !== 'string') throw new Error('fault tool must be a tool name');
}

interface Armed {
	fault: Fault;
	keyId?: string;
	left: number;
	random?: Random;
}

/**
 * Faults armed from the admin side, for tests that cannot set a header on the node's requests.
 * A `429` is answered by the tool handler, so it has the service's own shape on REST and MCP
 * alike and lands in the call log; the others by the transport, before the handler.
 */
export class FaultQueue {
	private armed: Armed[] = [];

	/** `keyId`: the key's record id when the fault names a key (the caller resolves it). */
	inject(fault: Fault, keyId?: string): void {
		checkFault(fault);
		const random = fault.share === undefined ? undefined : seededRandom(fault.seed ?? 1);
		this.armed.push({ fault: { ...fault }, keyId, left: fault.times ?? (fault.share === undefined ? 1 : Infinity), random });
	}

	clear(): number {
		const count = this.armed.length;
		this.armed = [];
		return count;
	}

	/** The fault due for this request, if any; `stage` picks the handler's (`429`) or the transport's (the rest). */
	take(stage: 'transport' | 'handler', tool: string | undefined, keyId: string | undefined): DueFault | undefined {
		for (let index = 0; index < this.armed.length; index++) {
			const armed = this.armed[index];
			const { fault } = armed;
			if ((fault.kind === '429') !== (stage === 'handler')) continue;
			if (fault.tool !== undefined && fault.tool !== tool) continue;
			if (armed.keyId !== undefined && armed.keyId !== keyId) continue;
			if (armed.random && armed.random() >= fault.share!) continue;
			if (--armed.left <= 0) this.armed.splice(index, 1);
			return { kind: fault.kind, delayMs: fault.delayMs ?? DEFAULT_DELAY_MS, retryAfterMs: fault.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS };
		}
		return undefined;
	}
}

/** Arms `fault` on a server started with faults on; a key is named by its value and must be one the server holds. */
export function injectFault(state: ServiceState, fault: Fault): void {
	if (!state.faults) throw new Error('fault injection needs startServer({ faults: true }) or --faults');
	if (fault.key !== undefined && typeof fault.key !== 'string') throw new Error('fault key must be an API key string');
	const keyId = fault.key === undefined ? undefined : state.accounts.keyIdOf(fault.key);
	if (fault.key !== undefined && keyId === undefined) throw new Error('fault key is not a key of any account on this server');
	state.faults.inject(fault, keyId);
}
