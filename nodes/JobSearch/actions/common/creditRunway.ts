import type { IDataObject, IExecuteFunctions, WorkflowExecuteMode } from 'n8n-workflow';

import {
	readPaceRecord,
	recordSpend,
	runwayOf,
	runwayWarning,
	safeUpgradeUrl,
	spendPerDay,
	type PaceRecord,
} from '../../service/runway';
import { errorDetails, type ToolUsage } from '../../transport';

/** Where the node keeps its pace in the workflow's static data (per node). */
export const RUNWAY_KEY = 'creditRunway';

/**
 * Runs that are not the workflow's own pace: a test from the editor, and evaluation runs over a
 * dataset. n8n does not save static data after a manual run either; neither writes it here.
 */
const NOT_PACE_MODES: readonly WorkflowExecuteMode[] = ['manual', 'evaluation'];

interface Stored {
	pace?: PaceRecord;
	upgradeUrl?: string;
}

function readStored(value: unknown): Stored {
	if (typeof value !== 'object' || value === null) return {};
	const { pace, upgradeUrl } = value as IDataObject;
	return { pace: readPaceRecord(pace), upgradeUrl: safeUpgradeUrl(upgradeUrl) };
}

/**
 * What one run of the node learns about the account's credit: the spend of every answer, the
 * credit left after them, and a 402's top-up address. At the end it remembers the run in the
 * node's static data and, when the credit left is short, adds a warning to the output panel.
 */
export class CreditWatch {
	private spentMicrocents = 0;
	private remainingMicrocents: number | undefined;
	private upgradeUrl: string | undefined;

	answered(usage: ToolUsage): void {
		this.spentMicrocents += usage.consumedMicrocents;
		// Answers arrive out of order with Concurrency: the smallest balance is the latest one.
		this.remainingMicrocents = Math.min(this.remainingMicrocents ?? Number.POSITIVE_INFINITY, usage.remainingMicrocents);
	}

	refused(error: unknown): void {
		const { error_code: code, availableMicrocents, upgradeUrl } = errorDetails(error);
		if (code !== 'insufficient_credits') return;
		if (availableMicrocents !== undefined) {
			this.remainingMicrocents = Math.min(this.remainingMicrocents ?? Number.POSITIVE_INFINITY, availableMicrocents);
		}
		this.upgradeUrl = safeUpgradeUrl(upgradeUrl) ?? this.upgradeUrl;
	}

	/** Call once, when every item is done (failed or not): a run the service never answered changes nothing. */
	finish(context: IExecuteFunctions, warnBelowMicrocents: number): void {
		if (this.remainingMicrocents === undefined) return;
		const staticData = context.getWorkflowStaticData('node');
		const stored = readStored(staticData[RUNWAY_KEY]);
		const paced = !NOT_PACE_MODES.includes(context.getMode());
		const pace = paced ? recordSpend(stored.pace, Date.now(), this.spentMicrocents) : stored.pace;
		const upgradeUrl = this.upgradeUrl ?? stored.upgradeUrl;
		if (paced) staticData[RUNWAY_KEY] = { pace, ...(upgradeUrl ? { upgradeUrl } : {}) } as unknown as IDataObject;
		const runway = runwayOf({
			remainingMicrocents: this.remainingMicrocents,
			runMicrocents: this.spentMicrocents,
			perDayMicrocents: spendPerDay(pace),
		});
		const warning = runwayWarning(runway, { warnBelowMicrocents, upgradeUrl });
		// Older n8n versions have no execution hints; the warning is a courtesy, not output.
		if (warning) context.addExecutionHints?.({ message: warning, type: 'warning', location: 'outputPane' });
	}
}
