import { sleep, type IDataObject, type INode, type NodeOperationError } from 'n8n-workflow';

import { toolDefinitions, type ToolName } from '../../filters';
import { MICROCENTS_PER_USD, PRICE_MICROCENTS, formatUsd, worstCaseMicrocents } from '../../service/pricing';
import { operationError } from '../../transport/errors';

/** One call an item is about to send, as its operation plans it before anything is sent. */
export interface PlannedCall {
	itemIndex: number;
	tool: ToolName;
	body: IDataObject;
	/** Items whose calls share this key share one request and one bill (lookups by Job UID). */
	sharedKey?: string;
}

const RAISE_CAP =
	'Raise "Max Credit per Execution (USD)" in Options to at least that amount (0 removes the cap), or ask for less.';

/** Both sums in dollars, with more digits where cents alone would print them alike ("$1.00, more than $1.00"). */
function distinctUsd(a: number, b: number): [string, string] {
	if (formatUsd(a) !== formatUsd(b)) return [formatUsd(a), formatUsd(b)];
	const digits = (microcents: number) => `$${(microcents / MICROCENTS_PER_USD).toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}`;
	return [digits(a), digits(b)];
}

function titleOf(tool: ToolName): string {
	return toolDefinitions().find((t) => t.name === tool)?.title ?? tool;
}

/** "Search Jobs for up to 10,000 jobs" or "3 Get Job calls": what the worst case is made of. */
function describeCalls(calls: readonly PlannedCall[]): string {
	const byTool = new Map<ToolName, { calls: number; rows: number }>();
	for (const { tool, body } of calls) {
		const entry = byTool.get(tool) ?? { calls: 0, rows: 0 };
		entry.calls += 1;
		entry.rows += worstCaseMicrocents(tool, body) / PRICE_MICROCENTS[tool];
		byTool.set(tool, entry);
	}
	return [...byTool.entries()]
		.map(([tool, { calls: count, rows }]) =>
			tool === 'search_jobs'
				? `${count === 1 ? '' : `${count} × `}${titleOf(tool)} for up to ${rows.toLocaleString('en-US')} jobs${count === 1 ? '' : ' in all'} at ${formatUsd(PRICE_MICROCENTS[tool])} each`
				: `${count} × ${titleOf(tool)} at ${formatUsd(PRICE_MICROCENTS[tool])}`,
		)
		.join(', ');
}

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
			const title = titleOf(tool);
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

	/**
	 * The whole execution's worst case, before anything is sent: every item's planned call at its
	 * price (a search at its Limit), lookups that share one request counted once. Over the cap,
	 * the error to refuse the run with, naming the worst case in dollars and how to raise the cap.
	 */
	refusalOfRun(calls: readonly PlannedCall[]): NodeOperationError | undefined {
		const cap = this.capMicrocents;
		if (cap === undefined) return undefined;
		const counted: PlannedCall[] = [];
		const seen = new Set<string>();
		let worst = 0;
		for (const call of calls) {
			if (call.sharedKey !== undefined) {
				if (seen.has(call.sharedKey)) continue;
				seen.add(call.sharedKey);
			}
			counted.push(call);
			worst += worstCaseMicrocents(call.tool, call.body);
			if (worst <= cap) continue;
			// The rest of the items only add to it: the sum so far already passes the cap.
			const itemIndex = call.itemIndex;
			const rest = calls.slice(calls.indexOf(call) + 1).filter((c) => c.sharedKey === undefined || !seen.has(c.sharedKey));
			const total = worst + rest.reduce((sum, c) => sum + worstCaseMicrocents(c.tool, c.body), 0);
			const [worstUsd, capUsd] = distinctUsd(total, cap);
			return operationError(
				this.node,
				'credit_cap_reached',
				`Not sent: this execution could cost up to ${worstUsd}, more than its Max Credit per Execution of ${capUsd} [item ${itemIndex}]`,
				{
					itemIndex,
					description: `Worst case: ${describeCalls([...counted, ...rest])}. Nothing was sent and nothing was billed. ${RAISE_CAP}`,
				},
			);
		}
		return undefined;
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
