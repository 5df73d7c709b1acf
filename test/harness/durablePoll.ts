import { PollContext } from 'n8n-core';
import { deepCopy, type IDataObject, type Logger } from 'n8n-workflow';

import { JOB_SEARCH_TRIGGER_TYPE, loadNodeTypes } from './nodeTypes';
import { TRIGGER_NAME, type LogLine, type PollOutcome, type PollerOptions } from './poll';
import { createAdditionalData, createWorkflow } from './workflow';

export interface DurablePoller {
	/**
	 * One poll as n8n 2.41's durable scheduler runs it: a new PollContext whose static data is a
	 * copy of the committed cursor. With `commit` the copy becomes the cursor (the execution was
	 * saved, or the poll returned null and committed while it held its lease); without, the poll's
	 * changes are thrown away (abandoned at the timeout, the lease lost, n8n stopped), and so is
	 * what it emitted: no execution ever ran for it. A poll that throws commits nothing.
	 * `pollBudgetMs` overrides the poller's for this poll (n8n gives the activation poll, which
	 * runs outside the scheduler, an unfenced 5 minutes).
	 */
	poll(options: { commit: boolean; pollBudgetMs?: number }): Promise<PollOutcome>;
	/** The committed cursor. */
	cursor(): IDataObject;
	logs: LogLine[];
}

/** The Job Search Trigger inside real n8n-core, with the durable scheduler's snapshot semantics. */
export function createDurablePoller(options: PollerOptions): DurablePoller {
	const types = loadNodeTypes();
	const workflow = createWorkflow(
		{ nodes: [{ name: TRIGGER_NAME, type: JOB_SEARCH_TRIGGER_TYPE, parameters: options.parameters ?? {} }], active: true, timezone: options.timezone },
		types,
	);
	const node = workflow.getNode(TRIGGER_NAME)!;
	const { additionalData } = createAdditionalData(options.credentials, types);
	const nodeType = types.nodes[JOB_SEARCH_TRIGGER_TYPE];
	const logs: LogLine[] = [];
	const logger = Object.fromEntries(
		(['error', 'warn', 'info', 'debug'] as const).map((level) => [level, (message: string) => logs.push({ level, message })]),
	) as unknown as Logger;
	let cursor: IDataObject = {};

	return {
		logs,
		cursor: () => cursor,
		async poll({ commit, pollBudgetMs = options.pollBudgetMs }) {
			const staged = deepCopy(cursor);
			const context = new PollContext(workflow, node, additionalData, 'trigger', 'activate');
			Object.defineProperty(context, 'logger', { value: logger });
			// Both lines of n8n-core: 2.41 takes the snapshot through resolveNodeStaticData, 2.8 has no
			// such parameter, so the context's own reader is replaced.
			const read = context.getWorkflowStaticData.bind(context);
			Object.defineProperty(context, 'getWorkflowStaticData', { value: (type: string) => (type === 'node' ? staged : read(type)) });
			if (pollBudgetMs !== undefined) Object.assign(context, { getPollBudgetMs: () => pollBudgetMs });
			let outcome: PollOutcome;
			try {
				const result = await nodeType.poll!.call(context);
				outcome = { items: result?.[0] ?? [], empty: result === null };
			} catch (error) {
				outcome = { items: [], empty: true, error: error as Error };
			}
			// A poll that throws commits nothing in n8n either: its failure goes to the error workflow.
			if (commit && !outcome.error) cursor = staged;
			return outcome;
		},
	};
}
