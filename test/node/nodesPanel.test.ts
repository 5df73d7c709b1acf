import type { INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { JOB_SEARCH_TRIGGER_TYPE, JOB_SEARCH_TYPE, loadNodeTypes } from '../harness/nodeTypes';

// How n8n's nodes panel (n8n 2.8 and 2.41 alike) names a node's actions, read from the description:
// a trigger's from the options of its "Event", "Events" or "Trigger On" field (each option's
// `action`, else "On <name>"), or, without such a field, one generic "On new <node name> event";
// an action node's from each resource's Operation options (each option's `action`).

function triggerActions(description: INodeTypeDescription): string[] {
	const field = description.properties.find((p) => ['event', 'events', 'trigger on'].includes(p.displayName.toLowerCase()));
	if (!field?.options) return [`On new ${description.displayName.replace('Trigger', '').trimEnd()} event`];
	return (field.options as INodePropertyOptions[]).map((o) => o.action ?? `On ${o.name}`);
}

function operationActions(description: INodeTypeDescription): string[] {
	return description.properties
		.filter((p) => p.name === 'operation')
		.flatMap((p) => (p.options as INodePropertyOptions[]).map((o) => o.action ?? o.name));
}

const types = loadNodeTypes().nodes;

describe('the nodes panel', () => {
	it('lists the trigger as "On new matching job", not n8n\'s generic "On new Job Search event"', () => {
		expect(triggerActions(types[JOB_SEARCH_TRIGGER_TYPE].description)).toEqual(['On new matching job']);
	});

	it('lists the node\'s actions as a user says them', () => {
		expect(operationActions(types[JOB_SEARCH_TYPE].description).sort()).toEqual(['Get a job', 'Get client activity', 'Get client history', 'Search jobs']);
	});
});
