/**
 * Pathological request bodies, each sent while another account's cheap request is timed: how long
 * one request can hold the server for everyone else. Run: `npm run fuzz -- --pathological`.
 */
export interface PathologicalCase {
	name: string;
	path: string;
	body: string;
}

const repeat = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const json = (v: unknown) => JSON.stringify(v);

export function pathologicalCases(): PathologicalCase[] {
	const nest = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);
	const nestObj = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
	const MiB = 1024 * 1024;
	return [
		{ name: '16,000 invalid jobDurations', path: '/v1/search_jobs', body: json({ 'budget.jobDurations': repeat(16_000, () => 'NOPE') }) },
		{ name: '1.3M invalid jobDurations (9 MiB)', path: '/v1/search_jobs', body: json({ 'budget.jobDurations': repeat(1_300_000, () => 'BAD') }) },
		{ name: '32,000 empty keywords', path: '/v1/search_jobs', body: json({ 'includeKeywords.keywords': repeat(32_000, () => '') }) },
		{ name: '8,000 keywords', path: '/v1/search_jobs', body: json({ 'includeKeywords.keywords': repeat(8_000, (i) => `kw${i}x`) }) },
		{ name: '1M one-char keywords', path: '/v1/search_jobs', body: json({ 'excludeKeywords.keywords': repeat(1_000_000, () => 'a') }) },
		{ name: 'one 9 MiB keyword', path: '/v1/search_jobs', body: json({ 'includeKeywords.keywords': ['a'.repeat(9 * MiB)] }) },
		{ name: '9 MiB money string', path: '/v1/search_jobs', body: json({ 'budget.hourlyRate.min': '1' + '0'.repeat(9 * MiB) }) },
		{ name: '9 MiB date fraction', path: '/v1/search_jobs', body: json({ fromDate: `2026-01-01T00:00:00.${'1'.repeat(9 * MiB)}Z` }) },
		{ name: '9 MiB jobUid', path: '/v1/get_job', body: json({ jobUid: '1'.repeat(9 * MiB) }) },
		{ name: '200,000 invalid country objects', path: '/v1/search_jobs', body: json({ 'client.includeLocations': repeat(200_000, () => ({ type: 'CITY', value: 'xx' })) }) },
		{ name: 'nesting 5,000 levels in a filter', path: '/v1/search_jobs', body: `{"limit":${nest(5_000)}}` },
		{ name: 'nesting 1M levels in a filter', path: '/v1/search_jobs', body: `{"limit":${nest(1_000_000)}}` },
		{ name: 'nesting 500,000 objects in a filter', path: '/v1/search_jobs', body: `{"limit":${nestObj(500_000)}}` },
		{ name: 'nesting 1M levels in jobUid', path: '/v1/get_job', body: `{"jobUid":${nest(1_000_000)}}` },
		{ name: '300,000 unknown keys', path: '/v1/search_jobs', body: json(Object.fromEntries(repeat(300_000, (i) => [`k${i}`, 1]))) },
		{ name: 'one unknown 9 MiB key', path: '/v1/search_jobs', body: json({ ['x'.repeat(9 * MiB)]: 1 }) },
		{ name: '__proto__ nested 100,000 times', path: '/v1/search_jobs', body: '{"__proto__":'.repeat(100_000) + '1' + '}'.repeat(100_000) },
		{ name: '9 MiB of whitespace', path: '/v1/search_jobs', body: ' '.repeat(9 * MiB) + '{}' },
		{ name: '1M numbers in a list', path: '/v1/search_jobs', body: json({ 'vendor.languages': repeat(1_000_000, () => 1) }) },
		{ name: '100 keywords of 100 chars, every field', path: '/v1/search_jobs', body: json({ 'includeKeywords.keywords': repeat(100, (i) => `${'ab'.repeat(49)}${i}`), 'excludeKeywords.keywords': repeat(100, (i) => `${'(a+)+'.repeat(19)}${i}`), limit: 10_000 }) },
		{ name: 'every job, limit 10,000', path: '/v1/search_jobs', body: json({ limit: 10_000 }) },
		{ name: 'MCP: every job, limit 10,000', path: '/mcp', body: json({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_jobs', arguments: { limit: 10_000 } } }) },
		{ name: 'MCP batch of 20 searches for every job', path: '/mcp', body: json(repeat(20, (i) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_jobs', arguments: { limit: 10_000 } } }))) },
		{ name: 'MCP batch of 5,000 tools/call', path: '/mcp', body: json(repeat(5_000, (i) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_jobs', arguments: { 'budget.jobDurations': repeat(20, () => 'X') } } }))) },
		{ name: 'MCP call, 16,000 invalid jobDurations', path: '/mcp', body: json({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_jobs', arguments: { 'budget.jobDurations': repeat(16_000, () => 'NOPE') } } }) },
		{ name: 'MCP call, 9 MiB keyword', path: '/mcp', body: json({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_jobs', arguments: { 'includeKeywords.keywords': ['a'.repeat(9 * MiB)] } } }) },
		{ name: 'MCP call, nesting 1M levels', path: '/mcp', body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_jobs","arguments":{"limit":${nest(1_000_000)}}}}` },
	];
}
