import { NodeHelpers, type IDataObject, type INodeParameters } from 'n8n-workflow';

import { JobSearch } from '../../nodes/JobSearch/JobSearch.node';

const description = new JobSearch().description;

/** Whether n8n keeps the option for these node parameters, as it resolves them for the editor and for a run. */
function kept(parameters: INodeParameters): boolean {
	const values = NodeHelpers.getNodeParameters(
		description.properties,
		{ ...parameters, options: { onPremiumNotIncluded: 'skip' } },
		true,
		false,
		null,
		description,
	)!;
	return (values.options as IDataObject).onPremiumNotIncluded === 'skip';
}

describe('the On Premium Not Included option', () => {
	it.each([
		['Get Client Activity', { resource: 'client', operation: 'getActivity' }, true],
		['Get Client History', { resource: 'client', operation: 'getHistory' }, true],
		['Get Job with client history', { resource: 'job', operation: 'get', includeClientHistory: true }, true],
		['Get Job with client history from an expression', { resource: 'job', operation: 'get', includeClientHistory: '={{ $json.history }}' }, true],
		['Get Job without client history', { resource: 'job', operation: 'get' }, false],
		['Search Jobs', { resource: 'job', operation: 'search' }, false],
	])('is offered for %s only where the premium addon can be needed', (_name, parameters, expected) => {
		expect(kept(parameters)).toBe(expected);
	});
});
