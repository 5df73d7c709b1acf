// n8n serves this package's output schemas on the editor's route, for each operation.
// Usage: node check-schemas.mjs <n8n url>
const [n8nUrl] = process.argv.slice(2);
const operations = ['job/search', 'job/get', 'client/getActivity', 'client/getHistory'];
const expected = { 'job/search': ['uid', 'title', 'url'], 'job/get': ['uid', 'title', 'description'], 'client/getActivity': ['jobUid'], 'client/getHistory': ['jobUid'] };
for (const operation of operations) {
	const url = `${n8nUrl}/schemas/n8n-nodes-job-search.jobSearch/1.0.0/${operation}.json`;
	const response = await fetch(url);
	const text = await response.text();
	if (!response.ok) {
		console.error(`  ${url}: ${response.status} ${text.slice(0, 200)}`);
		process.exit(1);
	}
	const schema = JSON.parse(text);
	const keys = Object.keys(schema.properties ?? {});
	const missing = expected[operation].filter((k) => !keys.includes(k));
	if (schema.type !== 'object' || missing.length) {
		console.error(`  ${url}: not the job schema (type ${schema.type}, missing ${missing.join(', ')})`);
		process.exit(1);
	}
	console.log(`  GET /schemas/n8n-nodes-job-search.jobSearch/1.0.0/${operation}.json: ${keys.length} fields`);
}
