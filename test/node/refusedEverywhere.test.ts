import axios from 'axios';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { FILTER_RANGES, GROUP_COLLECTIONS, toParameterName, type FilterSpec } from '../../nodes/JobSearch/filters';
import { createPoller } from '../harness/poll';
import { useTestService } from '../support/service';
import { runJobSearch, search } from './helpers';
import { callAsTool, fromAi } from './toolHarness';

// Slips a user makes in the editor (or a model as a tool) that the one filter schema refuses,
// before any request, at every door a search goes through: the node, the trigger, the AI tool
// and the service itself (the reference server, REST and MCP alike).

const service = useTestService();

/** A filter as set in the editor: its collection and parameter name, the value typed, and what the wire gets. */
interface Typed {
	spec: FilterSpec;
	typed: unknown;
	wire: unknown;
}

const typed = (spec: FilterSpec, value: unknown, wire: unknown = value): Typed => ({ spec, typed: value, wire });

function fieldsOf(filters: readonly Typed[], value: (filter: Typed) => unknown = (f) => f.typed): INodeParameters {
	const parameters: Record<string, Record<string, unknown>> = {};
	for (const filter of filters) (parameters[GROUP_COLLECTIONS[filter.spec.group].name] ??= {})[toParameterName(filter.spec.key)] = value(filter);
	return parameters as INodeParameters;
}

/**
 * What each door answers to the same filters, and the statuses of the requests that reached the
 * service for it: none from the node, the trigger and the tool; the one sent to the service, refused.
 */
async function refusals(filters: readonly Typed[]): Promise<Record<string, { message?: string; statuses: number[] }>> {
	const door = async (ask: (credentials: { apiKey: string; baseUrl?: string }) => Promise<string | undefined>) => {
		const { id, credentials } = await service.account('pro');
		const message = await ask(credentials);
		return { message, statuses: service.server.admin.callLog(id).map((call) => call.status) };
	};

	const argument = (filter: Typed) => toParameterName(filter.spec.key);
	return {
		node: await door(async (credentials) => (await runJobSearch(search(fieldsOf(filters)), { credentials })).error?.message),
		trigger: await door(async (credentials) => (await createPoller({ credentials, parameters: fieldsOf(filters) }).poll()).error?.message),
		tool: await door(async (credentials) => {
			const asked = fieldsOf(filters, (f) => fromAi(argument(f), typeof f.typed === 'number' ? 'number' : 'string'));
			const args: IDataObject = Object.fromEntries(filters.map((f) => [argument(f), f.typed as string | number]));
			// The tool answers a refusal as text for the model, naming the argument instead of the field.
			const { result } = await callAsTool(search(asked), args, credentials);
			let said = String(result?.error);
			for (const f of filters) said = said.replace(new RegExp(`the argument "${argument(f)}"`, 'i'), `${f.spec.title} (${f.spec.key})`);
			return said;
		}),
		server: await door(async (credentials) => {
			const body = Object.fromEntries(filters.map((f) => [f.spec.key, f.wire]));
			const res = await axios.post(`${service.server.url}/v1/search_jobs`, body, {
				headers: { authorization: `Bearer ${credentials.apiKey}` },
				validateStatus: () => true,
			});
			return res.status === 400 ? String(res.data.error) : `answered ${res.status}`;
		}),
	};
}

/** The node, the trigger and the tool send nothing; the request sent to the service itself is refused. */
const expectedStatuses = (door: string) => (door === 'server' ? [400] : []);

const spec = (key: string) => FILTER_RANGES.flatMap((r) => [r.min, r.max]).find((s) => s.key === key)!;
const countries = (key: string) => ({ key, group: 'Client Requirements', title: 'Client Countries', type: 'locationList' }) as FilterSpec;
const country = (code: string) => ({ type: 'COUNTRY', value: code });

describe('a country that is not an ISO 3166-1 code', () => {
	it('is refused everywhere before any request, "UK" with the code to write instead, GB', async () => {
		const all = await refusals([typed(countries('client.includeLocations'), 'US, UK', [country('US'), country('UK')])]);
		for (const [door, { message, statuses }] of Object.entries(all)) {
			expect({ door, statuses }).toEqual({ door, statuses: expectedStatuses(door) });
			expect({ door, message }).toEqual({
				door,
				message: expect.stringContaining('Client Countries (client.includeLocations) got "UK", which is not a two-letter ISO 3166 country code; write it as "US, GB"'),
			});
		}
	});

	it('is refused as two capitals that name no country, with codes to use instead', async () => {
		const { node, server } = await refusals([typed(countries('client.excludeLocations'), 'QQ', [country('QQ')])]);
		expect(node).toEqual({ statuses: [], message: expect.stringContaining('got "QQ", which is not a two-letter ISO 3166 country code; use codes such as "US, GB"') });
		expect(server.message).toContain('got "QQ", which is not a two-letter ISO 3166 country code');
	});
});

describe('a minimum above its maximum', () => {
	it.each([
		['Fixed Price', 'budget.fixedPrice', 500, 100],
		['Hourly Rate', 'budget.hourlyRate', 30, 20],
	])('(%s %s to %s) is refused everywhere before any request, naming both fields', async (_name, prefix, low, high) => {
		const [min, max] = [spec(`${prefix}.min`), spec(`${prefix}.max`)];
		const all = await refusals([typed(min, low, String(low)), typed(max, high, String(high))]);
		for (const [door, { message, statuses }] of Object.entries(all)) {
			expect({ door, statuses }).toEqual({ door, statuses: expectedStatuses(door) });
			expect({ door, message }).toEqual({ door, message: expect.stringContaining(`${min.title} (${min.key}) is ${low}, more than ${max.title} (${max.key}), ${high}`) });
		}
	});

	it.each(FILTER_RANGES.map(({ min, max }) => [min.title, max.title, min, max] as const))(
		'(%s above %s) is refused by the node before any request',
		async (_min, _max, min, max) => {
			const { credentials, id } = await service.account('pro');
			const { error } = await runJobSearch(search(fieldsOf([typed(min, 9), typed(max, 3)])), { credentials });
			expect(error?.message).toBe(
				`${min.title} (${min.key}) is 9, more than ${max.title} (${max.key}), 3; make the minimum no more than the maximum, or swap them if that is what was meant [item 0]`,
			);
			expect(service.server.admin.callLog(id)).toEqual([]);
		},
	);

	it('is not a slip when the two are equal', async () => {
		const { credentials } = await service.account('pro');
		const { error } = await runJobSearch(search(fieldsOf([typed(spec('budget.fixedPrice.min'), 100), typed(spec('budget.fixedPrice.max'), 100)])), { credentials });
		expect(error).toBeUndefined();
	});
});
