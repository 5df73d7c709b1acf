import { runJobSearch, search } from './helpers';
import { startProxy, type Proxy } from '../support/proxy';
import { useTestService } from '../support/service';

const service = useTestService();

let proxy: Proxy | undefined;
afterEach(async () => await proxy?.close());

/** An account whose requests pass a proxy, so a test sees the body the node sent. */
async function watched(): Promise<{ id: string; credentials: { apiKey: string; baseUrl: string } }> {
	const { id, credentials } = await service.account('pro');
	proxy = await startProxy(service.server.url);
	return { id, credentials: { ...credentials, baseUrl: proxy.url } };
}

describe('From Date and To Date in the Job Search node', () => {
	it('takes a plain date, as a sheet gives it, as that day at 00:00 UTC, in any workflow time zone', async () => {
		const { credentials } = await watched();
		const run = await runJobSearch(search({ basicFilters: { fromDate: '={{ $json.from }}', toDate: '2026-11-27' } }), {
			credentials,
			input: [{ from: '2026-11-26' }],
			timezone: 'America/New_York',
		});
		expect(run.error).toBeUndefined();
		expect(proxy!.bodies).toEqual([expect.objectContaining({ fromDate: '2026-11-26T00:00:00.000Z', toDate: '2026-11-27T00:00:00.000Z' })]);
	});

	it('reads a date and time without a zone in the workflow time zone, and sends it with its zone', async () => {
		const { credentials } = await watched();
		await runJobSearch(search({ basicFilters: { fromDate: '2026-11-26 08:00' } }), { credentials, timezone: 'Europe/Berlin' });
		expect(proxy!.bodies).toEqual([expect.objectContaining({ fromDate: '2026-11-26T07:00:00.000Z' })]);
	});

	it('refuses a From Date that was added but is empty, naming it, before any request', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ basicFilters: { fromDate: '' } }), { credentials });
		expect(error?.message).toBe(
			'From Date (fromDate) was added but is empty, so the search would not be bounded by it: pick a date in the calendar (a typed date must read like 2026-11-26 08:00:00, or the picker drops it), or remove the filter [item 0]',
		);
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('refuses a To Date whose expression gave nothing, naming its item', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ basicFilters: { toDate: '={{ $json.until }}' } }), { credentials, input: [{ until: '2026-11-26' }, { until: '' }] });
		expect(error?.message).toMatch(/^To Date \(toDate\) was added but is empty.*\[item 1\]$/);
		expect(service.server.admin.callLog(id)).toEqual([]);
	});

	it('names what it accepts when a date is none of them', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch(search({ basicFilters: { fromDate: '26/11/2026' } }), { credentials });
		expect(error?.message).toBe(
			"From Date (fromDate) must be a date such as 2026-11-26 (that day at 00:00 UTC) or a date and time such as 2026-11-26T08:00:00Z (without a zone: the workflow's time zone in n8n, UTC through the API); got \"26/11/2026\" [item 0]",
		);
		expect(service.server.admin.callLog(id)).toEqual([]);
	});
});

describe('From Date and To Date at the service', () => {
	it('takes a plain date as that day at 00:00 UTC, and a time without a zone as UTC', async () => {
		const { credentials } = await service.account('pro');
		const jobs = [...service.server.admin.visibleJobs()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
		const newest = jobs[0].createdAt;
		const day = newest.slice(0, 10);
		const ask = async (body: Record<string, unknown>) =>
			await fetch(`${service.server.url}/v1/search_jobs`, {
				method: 'POST',
				headers: { authorization: `Bearer ${credentials.apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({ limit: 1000, ...body }),
			}).then(async (r) => ((await r.json()) as { data: { total: number } }).data.total);
		const sinceMidnight = jobs.filter((j) => j.createdAt >= `${day}T00:00:00.000Z`).length;
		expect(await ask({ fromDate: day })).toBe(sinceMidnight);
		expect(await ask({ fromDate: `${day} 00:00` })).toBe(sinceMidnight);
		expect(await ask({ fromDate: `${day}T00:00:00Z` })).toBe(sinceMidnight);
	});
});
