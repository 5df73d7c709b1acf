import { PollContext } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, INodeParameters, Logger, Workflow } from 'n8n-workflow';

import { JOB_SEARCH_TRIGGER_TYPE, loadNodeTypes } from './nodeTypes';
import { createAdditionalData, createWorkflow, type HarnessCredentials } from './workflow';

export const TRIGGER_NAME = 'Job Search Trigger';

export interface PollerOptions {
	credentials: HarnessCredentials;
	parameters?: INodeParameters;
	/** Simulates newer n8n, whose PollContext has getPollBudgetMs; unset behaves like the 2.8 line. */
	pollBudgetMs?: number;
	/** The workflow's time zone (its settings), where Poll Times are read; n8n's default (America/New_York) if unset. */
	timezone?: string;
}

export interface PollOutcome {
	/** The items of the poll's first output; [] when it returned null. */
	items: INodeExecutionData[];
	/** True when poll() returned null (nothing to emit). */
	empty: boolean;
	error?: Error;
}

export interface LogLine {
	level: 'error' | 'warn' | 'info' | 'debug';
	message: string;
}

export interface Poller {
	workflow: Workflow;
	node: INode;
	/** Runs poll() once, as n8n does on each Poll Time ("trigger", one context for them all) or on "Fetch Test Event" ("manual"). */
	poll(mode?: 'trigger' | 'manual'): Promise<PollOutcome>;
	/** The node's static data, where n8n keeps it between polls. */
	staticData(): IDataObject;
	/** Puts other credentials in the trigger's credential (a new key, say), as a user edits it; the static data stays. */
	useCredentials(credentials: HarnessCredentials): void;
	/** From the next poll on, the poll budget newer n8n gives (getPollBudgetMs); undefined behaves like the 2.8 line. */
	setPollBudgetMs(ms: number | undefined): void;
	logs: LogLine[];
}

/**
 * Runs the Job Search Trigger inside real n8n-core: a Workflow holding the trigger, a PollContext
 * per poll over the harness's credentials, and static data kept by the Workflow as n8n keeps it
 * for an active workflow.
 */
export function createPoller(options: PollerOptions): Poller {
	const types = loadNodeTypes();
	const workflow = createWorkflow(
		{ nodes: [{ name: TRIGGER_NAME, type: JOB_SEARCH_TRIGGER_TYPE, parameters: options.parameters ?? {} }], active: true, timezone: options.timezone },
		types,
	);
	const node = workflow.getNode(TRIGGER_NAME)!;
	let { additionalData } = createAdditionalData(options.credentials, types);
	const nodeType = types.nodes[JOB_SEARCH_TRIGGER_TYPE];
	const logs: LogLine[] = [];
	const logger = Object.fromEntries(
		(['error', 'warn', 'info', 'debug'] as const).map((level) => [level, (message: string) => logs.push({ level, message })]),
	) as unknown as Logger;

	let triggerContext: PollContext | undefined;
	let pollBudgetMs = options.pollBudgetMs;
	const newContext = (mode: 'trigger' | 'manual') => {
		const context = new PollContext(workflow, node, additionalData, mode, 'activate');
		// The context's logger is n8n's global one; each poller keeps its own lines instead.
		Object.defineProperty(context, 'logger', { value: logger });
		if (pollBudgetMs !== undefined) {
			const givenMs = pollBudgetMs;
			Object.assign(context, { getPollBudgetMs: () => givenMs });
		}
		return context;
	};

	return {
		workflow,
		node,
		logs,
		staticData: () => workflow.getStaticData('node', node),
		useCredentials(credentials) {
			additionalData = createAdditionalData(credentials, types).additionalData;
			triggerContext = undefined;
		},
		setPollBudgetMs(ms) {
			pollBudgetMs = ms;
			triggerContext = undefined;
		},
		async poll(mode = 'trigger') {
			// n8n 2.8 builds one PollContext per active workflow and calls poll() on it at every tick,
			// without waiting for the poll before: reuse it, so overlapping polls share it as there.
			const context = mode === 'trigger' ? (triggerContext ??= newContext('trigger')) : newContext(mode);
			try {
				const result = await nodeType.poll!.call(context);
				return { items: result?.[0] ?? [], empty: result === null };
			} catch (error) {
				return { items: [], empty: true, error: error as Error };
			}
		},
	};
}
