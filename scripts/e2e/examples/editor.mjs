// In the real editor (Chromium via puppeteer-core), what the examples promise a user:
//   1. the output schema preview: in a workflow whose Search Jobs never ran, the next node's input
//      panel lists the job fields;
//   2. the first example workflow opens with every node known (the README's picture);
//   3. the daily digest example's trigger, on "Fetch Test Event", gives one digest item.
// Screenshots go to $SHOTS (examples-*.png). Configured by environment variables set in run.sh.
import { readFileSync } from 'fs';
import { openEditorPage, say } from '../browser.mjs';

const env = (name) => process.env[name] ?? (console.error(`examples editor: ${name} is not set`), process.exit(2));
const n8nUrl = env('N8N_URL');
const shots = env('SHOTS');
const manifest = JSON.parse(readFileSync(env('EXAMPLES_MANIFEST'), 'utf8'));
const settle = (ms = 600) => new Promise((resolve) => setTimeout(resolve, ms));

const { browser, page, step } = await openEditorPage(shots, (name) => `examples-${name}`, 'examples-failed-at-');

async function openWorkflow(id) {
	await page.goto(`${n8nUrl}/workflow/${id}`, { waitUntil: 'domcontentloaded' });
	await page.waitForSelector('[data-test-id="canvas-node"]');
	await settle(1200);
}

/** Opens a node's panel by double-clicking it on the canvas. */
async function openNode(name) {
	const node = await page.waitForFunction(
		(wanted) => [...document.querySelectorAll('[data-test-id="canvas-node"]')].find((el) => el.getAttribute('data-node-name') === wanted),
		{},
		name,
	);
	const box = await node.asElement().boundingBox();
	await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { clickCount: 2 });
	await page.waitForSelector('[data-test-id="ndv"], [data-test-id="node-parameters"]');
	await settle();
}

const panelText = (selector) => page.$eval(selector, (el) => el.innerText).catch(() => '');

try {
	await step('sign-in', async () => {
		await page.goto(`${n8nUrl}/signin`, { waitUntil: 'domcontentloaded' });
		await page.waitForSelector('input[name="emailOrLdapLoginId"], [data-test-id="signin-form"] input[type="email"]');
		await page.type('input[name="emailOrLdapLoginId"], [data-test-id="signin-form"] input[type="email"]', env('OWNER_EMAIL'));
		await page.type('input[name="password"]', env('OWNER_PASSWORD'));
		await Promise.all([page.waitForFunction(() => !location.pathname.startsWith('/signin')), page.keyboard.press('Enter')]);
	});

	await step('schema-preview', async () => {
		await openWorkflow(manifest['schema-preview.json'].id);
		await openNode('Next Node');
		const input = '[data-test-id="ndv-input-panel"], [data-test-id="input-panel"]';
		const wanted = ['title', 'url', 'clientCountry', 'description'];
		const listed = async () => {
			const text = await panelText(input);
			return wanted.every((field) => text.includes(field)) ? text : undefined;
		};
		let text = await page.waitForFunction((sel, fields) => fields.every((f) => document.querySelector(sel)?.innerText.includes(f)), { timeout: 20_000 }, input, wanted).then(listed, () => undefined);
		if (!text) {
			// The input panel may open in another display mode: ask for the schema view.
			await page.evaluate((sel) => {
				const panel = document.querySelector(sel);
				const schema = [...(panel?.querySelectorAll('[data-test-id="ndv-run-data-display-mode"] *, [role="radio"], label, button') ?? [])].find((el) => /^\s*schema\s*$/i.test(el.textContent));
				schema?.click();
			}, input);
			text = await page.waitForFunction((sel, fields) => fields.every((f) => document.querySelector(sel)?.innerText.includes(f)), { timeout: 20_000 }, input, wanted).then(listed, () => undefined);
		}
		if (!text) throw new Error(`the input panel of "Next Node" does not list the job fields: ${(await panelText(input)).slice(0, 400)}`);
		say(`input panel lists ${wanted.join(', ')} before Search Jobs ran`);
	});

	const first = manifest['ai-scored-alerts-telegram-approval.json'];
	await step('first-example', async () => {
		await openWorkflow(first.id);
		const names = await page.$$eval('[data-test-id="canvas-node"]', (els) => els.map((el) => el.getAttribute('data-node-name') ?? el.textContent.trim()));
		for (const node of first.nodes) if (!names.some((n) => n.includes(node.name))) throw new Error(`node "${node.name}" is not on the canvas (${names.join(', ')})`);
		const unknown = await page.evaluate(() => /install this node|node is not currently installed|unknown node/i.test(document.body.innerText));
		if (unknown) throw new Error('the canvas shows an unknown node');
		say(`"${first.name}": ${names.length} nodes on the canvas, all known`);
	});

	await step('digest-fetch-test-event', async () => {
		await openWorkflow(manifest['daily-email-digest.json'].id);
		await openNode('Job Search Trigger');
		await page.click('[data-test-id="node-execute-button"]');
		// The trigger's panel has no separate input side: read the whole panel.
		const outcome = await page.waitForFunction(
			() => {
				const notice = [...document.querySelectorAll('.el-notification')].find((el) => /problem|error|no data/i.test(el.textContent));
				if (notice) return `notice: ${notice.innerText}`;
				const text = document.querySelector('[data-test-id="ndv"]')?.innerText ?? document.body.innerText;
				return /\b1 item\b/.test(text) && /\d+ new jobs?/.test(text) && 'ok';
			},
			{ timeout: 120_000 },
		);
		const result = await outcome.jsonValue();
		if (result !== 'ok') throw new Error(`Fetch Test Event: ${result}`);
		await settle();
		const text = await page.evaluate(() => document.querySelector('[data-test-id="ndv"]')?.innerText ?? document.body.innerText);
		for (const field of ['count', 'text', 'jobs']) if (!text.includes(field)) throw new Error(`the digest item has no "${field}": ${text.slice(0, 300)}`);
		say('the digest example gives one item with count, text and jobs');
	});
} finally {
	await browser.close();
}
say('examples editor: ok');
