// Checks the log of `n8n execute --rawOutput` (N8N_LOG_FORMAT=json): the run succeeded, each named
// node returned items with a uid and a title, and the API key appears nowhere.
// Usage: node check-execute.mjs <log> <api key> <node name>...
import { readFileSync } from 'fs';

const [logFile, key, ...names] = process.argv.slice(2);
const log = readFileSync(logFile, 'utf8');
const fail = (message) => {
	console.error(`n8n execute: ${message} (log: ${logFile})`);
	process.exit(1);
};
if (log.includes(key)) fail('the API key appears in n8n output');
for (const line of log.split('\n')) {
	let entry, run;
	try {
		entry = JSON.parse(line);
		run = JSON.parse(entry.message);
	} catch {
		continue;
	}
	const result = (run.data ?? run).resultData;
	if (!result) continue;
	if (result.error) fail(`execution failed: ${result.error.message}`);
	for (const name of names) {
		const items = result.runData[name]?.[0]?.data?.main?.[0] ?? [];
		if (items.length === 0) fail(`${name} returned no items`);
		const bad = items.find((item) => typeof item.json.uid !== 'string' || typeof item.json.title !== 'string');
		if (bad) fail(`${name} returned an item without uid and title: ${JSON.stringify(bad.json).slice(0, 300)}`);
		console.log(`  ${name}: ${items.length} items, first ${items[0].json.uid} "${items[0].json.title}"`);
	}
	const searched = result.runData[names[0]][0].data.main[0].map((item) => item.json.uid);
	const got = result.runData[names[1]]?.[0]?.data?.main?.[0]?.map((item) => item.json.uid);
	if (got && got.join() !== searched.join()) fail(`${names[1]} returned ${got} for the searched ${searched}`);
	process.exit(0);
}
fail('no execution result in n8n output');
