import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { numberOption } from '../../filters/numberOption';
import { DEFAULT_MAX_CREDIT_USD, MICROCENTS_PER_USD } from '../../service/pricing';
import { warnBelowMicrocents } from '../../service/runway';
import {
	DEFAULT_MAX_RETRIES,
	DEFAULT_MAX_RETRY_WAIT_SECONDS,
	MAX_RETRIES_CEILING,
	REQUEST_TIMEOUT_SECONDS,
} from '../../transport/tunables';
import type { ItemOptions } from './types';

// The values of the Options collection (actions/description.ts), read with their defaults.

function raw(this: IExecuteFunctions, itemIndex: number): IDataObject {
	return this.getNodeParameter('options', itemIndex, {}) as IDataObject;
}

export function itemOptions(this: IExecuteFunctions, itemIndex: number): ItemOptions & {
	maxRetries: number;
	maxRetryWaitMs: number;
	timeoutMs: number;
} {
	const o = raw.call(this, itemIndex);
	return {
		output: o.output === 'wholeResponse' ? 'wholeResponse' : 'perJob',
		includeUsage: o.includeUsage === true,
		onPremiumNotIncluded: (o.onPremiumNotIncluded as ItemOptions['onPremiumNotIncluded']) ?? 'error',
		maxRetries: Math.min(MAX_RETRIES_CEILING, Math.max(0, Math.floor(numberOption(o.maxRetries, DEFAULT_MAX_RETRIES)))),
		maxRetryWaitMs: Math.max(0, numberOption(o.maxRetryWaitSeconds, DEFAULT_MAX_RETRY_WAIT_SECONDS) * 1000),
		timeoutMs: Math.max(1, numberOption(o.timeoutSeconds, REQUEST_TIMEOUT_SECONDS) * 1000),
	};
}

/** Settings that bound the whole execution, so they are read once, from the first item. */
export interface ExecutionSettings {
	concurrency: number;
	minIntervalMs: number;
	maxCreditMicrocents?: number;
	/** "Warn Below Credit": 0 for none. */
	warnBelowMicrocents: number;
}

/** Read once per execution, from the first item whose input could be prepared (item 0 normally). */
export function executionSettings(this: IExecuteFunctions, itemIndex: number | undefined): ExecutionSettings {
	if (itemIndex === undefined) return { concurrency: 1, minIntervalMs: 0, warnBelowMicrocents: 0 };
	const o = raw.call(this, itemIndex);
	// Absent (a new node, or a workflow saved before the default): the default cap, not none.
	const maxCreditUsd = numberOption(o.maxCreditUsd, DEFAULT_MAX_CREDIT_USD);
	return {
		concurrency: Math.max(1, Math.floor(numberOption(o.concurrency, 1))),
		minIntervalMs: Math.max(0, numberOption(o.minIntervalMs, 0)),
		maxCreditMicrocents: maxCreditUsd > 0 ? Math.round(maxCreditUsd * MICROCENTS_PER_USD) : undefined,
		warnBelowMicrocents: warnBelowMicrocents(numberOption(o.warnBelowCreditUsd, 0)),
	};
}
