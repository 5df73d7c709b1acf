import { readAdditionalFilters } from '../../nodes/JobSearch/filters';
import { runJobSearch, search, startTestService, type TestService } from './helpers';

let service: TestService;
beforeAll(async () => {
	service = await startTestService();
});
afterAll(async () => await service.server.close());

const verifiedOnly = JSON.stringify({ 'client.paymentMethodVerified': true });

describe('Additional Filters (JSON) in Options', () => {
	const verifiedFlags = async (parameters: Record<string, unknown>) => {
		const { credentials } = await service.account('pro');
		const { output, error } = await runJobSearch(search({ limit: 40, simplify: false, ...parameters }), { credentials });
		expect(error).toBeUndefined();
		expect(output.length).toBeGreaterThan(0);
		return new Set(output.map(({ json }) => (json.client as { paymentMethodVerified: boolean }).paymentMethodVerified));
	};

	it('applies the filters written in Options', async () => {
		expect(await verifiedFlags({ options: { additionalFilters: verifiedOnly } })).toEqual(new Set([true]));
	});

	it('still applies the top-level value of a workflow saved before the field moved', async () => {
		expect(await verifiedFlags({ additionalFilters: verifiedOnly })).toEqual(new Set([true]));
	});

	it('prefers the Options entry when a workflow has both, so the value the editor shows is the one that applies', async () => {
		expect(await verifiedFlags({})).toEqual(new Set([true, false]));
		expect(await verifiedFlags({ additionalFilters: verifiedOnly, options: { additionalFilters: '{}' } })).toEqual(new Set([true, false]));
	});

	it('is read in one place for both nodes, from Options first', () => {
		const parameters: Record<string, unknown> = { options: { additionalFilters: '{"a": 1}' }, additionalFilters: '{"b": 2}' };
		expect(readAdditionalFilters((name) => parameters[name])).toBe('{"a": 1}');
		expect(readAdditionalFilters((name) => ({ options: {}, additionalFilters: '{"b": 2}' })[name])).toBe('{"b": 2}');
	});
});
