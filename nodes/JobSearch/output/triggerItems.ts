import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { CreditLeft } from '../service/runway';
import type { ToolUsage } from '../transport';
import { digestText, type TriggerOutput } from './digest';
import { usageFields, withCallUsage } from './items';
import { simplifyJob } from './simplifyJob';

export interface ItemSettings {
	simplify: boolean;
	output: TriggerOutput;
	/** Unset unless Include Usage is on. */
	usage?: ToolUsage;
	/** With Include Usage: how long the credit left lasts, on the first item (or the digest). */
	creditLeft?: CreditLeft;
	/** Watch "Several Searches": the names of the searches that found each job, by uid. */
	foundBy?: (uid: string) => string[];
}

/**
 * A poll's items from its new jobs (newest first), in the shape the Output option asks for: one
 * item per job (usage on the first, so a sum downstream counts the poll once), or one digest with
 * the jobs, their count, a ready-to-send text and the usage. With several searches, each job says
 * `search` (the first search that found it, in the user's order) and `searches` (all of them).
 */
export function triggerItems(jobs: IDataObject[], settings: ItemSettings): INodeExecutionData[] {
	const { foundBy } = settings;
	const shaped = jobs.map((job) => {
		const json = settings.simplify ? simplifyJob(job) : job;
		if (!foundBy) return json;
		const searches = foundBy(String(job.uid));
		return { ...json, search: searches[0], searches };
	});
	if (settings.output === 'perPoll') {
		const digest: IDataObject = { count: jobs.length, text: digestText(jobs, foundBy), jobs: shaped };
		if (settings.usage) digest.usage = usageFields(settings.usage);
		if (settings.creditLeft) digest.creditLeft = { ...settings.creditLeft };
		return [{ json: digest }];
	}
	const items = withCallUsage(shaped, settings.usage);
	if (settings.creditLeft && items.length > 0) items[0] = { ...items[0], creditLeft: { ...settings.creditLeft } };
	return items.map((json) => ({ json }));
}
