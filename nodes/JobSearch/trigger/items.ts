import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { simplifyJob, usageFields, withCallUsage } from '../output';
import type { ToolUsage } from '../transport';
import { digestText, type TriggerOutput } from './digest';

export interface ItemSettings {
	simplify: boolean;
	output: TriggerOutput;
	/** Unset unless Include Usage is on. */
	usage?: ToolUsage;
}

/**
 * A poll's items from its new jobs (newest first), in the shape the Output option asks for: one
 * item per job (usage on the first, so a sum downstream counts the poll once), or one digest with
 * the jobs, their count, a ready-to-send text and the usage.
 */
export function triggerItems(jobs: IDataObject[], settings: ItemSettings): INodeExecutionData[] {
	const shaped = jobs.map((job) => (settings.simplify ? simplifyJob(job) : job));
	if (settings.output === 'perPoll') {
		const digest: IDataObject = { count: jobs.length, text: digestText(jobs), jobs: shaped };
		if (settings.usage) digest.usage = usageFields(settings.usage);
		return [{ json: digest }];
	}
	return withCallUsage(shaped, settings.usage).map((json) => ({ json }));
}
