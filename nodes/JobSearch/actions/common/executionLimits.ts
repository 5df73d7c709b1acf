import { sleep, type IDataObject, type INode } from 'n8n-workflow';

import { toolDefinitions, type ToolName } from '../../filters';
import { formatUsd, worstCaseMicrocents } from '../../service/pricing';
import { operationError } from '../../transport/errors';

/**
 * The credit one execution may still spend. Each call reserves its worst case before it is
 * sent and settles to what the service reports after, so parallel calls cannot overshoot.
 * Lives for one execute() call only: nothing is kept between executions or workers.
 */
export class CreditCap {
	private spent = 0;

	private reserved = 0;

	constructor(
		private readonly node: INode,
		private readonly capMicrocents: number | undefined,
	) {}

	reserve(tool: ToolName, body: IDataObject, itemIndex: number): number {
		const worst = worstCaseMicrocents(tool, body);
		const cap = this.capMicrocents;
		if (cap !== undefined && this.spent + this.reserved + worst > cap) {
			const title = toolDefinitions().find((t) => t.name === tool)?.title ?? tool;
			throw operationError(
				this.node,
				'credit_cap_reached',
				`Stopped before ${title}: it could cost up to ${formatUsd(worst)}, and this execution has already used ${formatUsd(this.spent + this.reserved)} of its ${formatUsd(cap)} cap [item ${itemIndex}]`,
				{
					itemIndex,
					description:
						'This request was not sent. Raise "Max Credit per Execution (USD)" in the options, or ask for fewer rows with Limit (a search is billed per returned row).',
				},
			);
		}
		this.reserved += worst;
		return worst;
	}

	/** The cap less what the service has billed so far (calls in flight aside); Infinity without a cap. */
	get unspentMicrocents(): number {
		return this.capMicrocents === undefined ? Number.POSITIVE_INFINITY : Math.max(0, this.capMicrocents - this.spent);
	}

	settle(reservation: number, consumedMicrocents: number): void {
		this.reserved -= reservation;
		this.spent += consumedMicrocents;
	}
}

/** Where the pacer reads the time and how it waits; a test passes its own. */
export interface PacerClock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

const realClock: PacerClock = { now: () => Date.now(), sleep: async (ms) => await sleep(ms) };

/**
 * Spaces request starts at least `intervalMs` apart across all concurrent items: each caller
 * gets the next free start time and sleeps until then.
 */
export class Pacer {
	private nextAt = 0;

	constructor(
		private readonly intervalMs: number,
		private readonly clock: PacerClock = realClock,
	) {}

	async wait(): Promise<void> {
		if (!(this.intervalMs > 0)) return;
		const now = this.clock.now();
		const at = Math.max(now, this.nextAt);
		this.nextAt = at + this.intervalMs;
		if (at > now) await this.clock.sleep(at - now);
	}
}
