import { NodeHelpers, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { JobSearch } from '../../nodes/JobSearch/JobSearch.node';

const description = new JobSearch().description;
const options = description.properties.find((p) => p.name === 'options')!;
const onPremium = (options.options as INodeProperties[]).find((o) => o.name === 'onPremiumNotIncluded')!;

/** Whether the editor shows the option for these node parameters, as n8n decides it (defaults filled in). */
function shown(parameters: INodeParameters): boolean {
	const values = NodeHelpers.getNodeParameters(description.properties, parameters, true, false, null, description)!;
	return NodeHelpers.displayParameterPath(values, onPremium, 'options', null, description);
}

describe('the On Premium Not Included option', () => {
	it.each([
		['Get Client Activity', { resource: 'client', operation: 'getActivity' }, true],
		['Get Client History', { resource: 'client', operation: 'getHistory' }, true],
		['Get Job with client history', { resource: 'job', operation: 'get', includeClientHistory: true }, true],
		['Get Job without client history', { resource: 'job', operation: 'get' }, false],
		['Search Jobs', { resource: 'job', operation: 'search' }, false],
	])('is shown for %s only where the premium addon can be needed', (_name, parameters, expected) => {
		expect(shown({ ...parameters, options: {} })).toBe(expected);
	});
});
