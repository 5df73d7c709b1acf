// The editor of a real n8n in Debian's Chromium, driven by puppeteer-core, as a user would:
// log in, open a workflow, add Job Search from the nodes panel (Search Jobs), add a filter from
// "Add Filter" and type a value, execute the node, read the output panel. A screenshot of each
// step goes to $SHOTS; any console error or page error naming the package fails the check.
// Configured by environment variables set in run.sh.
import { STEP_TIMEOUT_MS, openEditorPage, say } from './browser.mjs';

const env = (name) => process.env[name] ?? (console.error(`editor: ${name} is not set`), process.exit(2));
const n8nUrl = env('N8N_URL');
const shots = env('SHOTS');
const workflowId = env('EDITOR_WORKFLOW');
const PACKAGE_MENTION = /n8n-nodes-job-search|jobSearch|job search/i;
const consoleErrors = [];
let shot = 0;

const { browser, page, step } = await openEditorPage(shots, (name) => `${String(++shot).padStart(2, '0')}-${name}`, 'failed-at-');
page.on('console', (message) => {
	if (message.type() === 'error') consoleErrors.push(message.text());
});
page.on('pageerror', (error) => consoleErrors.push(`page error: ${error.message}`));


/** Clicks the first visible element matching `selector` whose text contains `text`. */
async function clickText(selector, text, root = page) {
	const handle = await root.waitForFunction(
		(sel, wanted) => [...document.querySelectorAll(sel)].find((el) => el.offsetParent !== null && el.textContent.includes(wanted)),
		{ timeout: STEP_TIMEOUT_MS },
		selector,
		text,
	);
	// A DOM click: a mouse click at coordinates can land on a neighbour while a dropdown animates.
	await handle.asElement().evaluate((el) => el.click());
}

/** Lets an animation (dropdown, toast) finish before a screenshot. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

let outputText = '';
try {
	await step('sign-in', async () => {
		await page.goto(`${n8nUrl}/signin`, { waitUntil: 'domcontentloaded' });
		await page.waitForSelector('[data-test-id="signin-form"] input[type="email"], input[name="emailOrLdapLoginId"]');
		await page.type('input[name="emailOrLdapLoginId"], [data-test-id="signin-form"] input[type="email"]', env('OWNER_EMAIL'));
		await page.type('input[name="password"]', env('OWNER_PASSWORD'));
		await Promise.all([
			page.waitForFunction(() => !location.pathname.startsWith('/signin')),
			page.keyboard.press('Enter'),
		]);
	});

	await step('open-workflow', async () => {
		await page.goto(`${n8nUrl}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
		await page.waitForSelector('[data-test-id="canvas-node-output-handle"]');
	});

	await step('nodes-panel-search', async () => {
		// A click that lands while the canvas is still fitting its view opens nothing (seen once in
		// CI): click again until the nodes panel is open.
		for (let attempt = 1; ; attempt++) {
			await page.click('[data-test-id="canvas-handle-plus"]');
			const opened = await page.waitForSelector('[data-test-id="node-creator-search-bar"]', { timeout: 5_000 }).then(Boolean, () => false);
			if (opened) break;
			if (attempt === 4) throw new Error('the nodes panel did not open after 4 clicks on the + of the trigger');
			await settle();
		}
		await page.type('[data-test-id="node-creator-search-bar"]', 'Job Search');
		await page.waitForFunction(() =>
			[...document.querySelectorAll('[data-test-id="node-creator-item-name"]')].some((el) => el.textContent.trim() === 'Job Search'),
		);
	});

	await step('nodes-panel-actions', async () => {
		await clickText('[data-test-id="node-creator-item-name"]', 'Job Search');
		await page.waitForFunction(() =>
			[...document.querySelectorAll('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]')].some((el) => /search jobs/i.test(el.textContent)),
		);
	});

	await step('node-panel', async () => {
		const leaf = await page.evaluateHandle(() =>
			[...document.querySelectorAll('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]')].find((el) => /^search jobs$/i.test(el.textContent.trim())),
		);
		// A mouse click: n8n 2.41 adds the node on pointer events, which a DOM click() does not send.
		await leaf.asElement().click();
		await page.waitForSelector('[data-test-id="node-parameters"]');
		await page.waitForSelector('[data-test-id="node-parameters"] [data-test-id="collection-parameter-add"]');
	});

	await step('add-filter-menu', async () => {
		// "Add Filter" of the collection labelled Budget.
		const opened = await page.evaluate(() => {
			const adds = [...document.querySelectorAll('[data-test-id="node-parameters"] [data-test-id="collection-parameter-add"]')];
			const budget = adds.find((el) => {
				for (let node = el.parentElement; node; node = node.parentElement) {
					if (node.querySelectorAll('[data-test-id="collection-parameter-add"]').length > 1) return false;
					if (/Budget/.test(node.querySelector('label, [data-test-id="input-label"]')?.textContent ?? '')) return true;
				}
				return false;
			});
			if (!budget) return false;
			budget.scrollIntoView();
			(budget.querySelector('input, .el-select__wrapper, [role="combobox"]') ?? budget).click();
			return true;
		});
		if (!opened) throw new Error('no "Add Filter" of a Budget collection in the node panel');
		await page.waitForFunction(() =>
			[...document.querySelectorAll('[data-test-id="collection-parameter-option"]')].some((el) => el.offsetParent !== null && el.textContent.includes('Hourly Rate Min')),
		);
		await settle();
	});

	await step('filter-set', async () => {
		await clickText('[data-test-id="collection-parameter-option"]', 'Hourly Rate Min');
		const field = await page.waitForFunction(() =>
			[...document.querySelectorAll('[data-test-id="node-parameters"] [data-test-id="parameter-item"]')]
				.find((el) => el.textContent.includes('Hourly Rate Min') && el.querySelector('input'))
				?.querySelector('input'),
		);
		await field.asElement().click({ clickCount: 3 });
		await field.asElement().type('20');
		// Leave the field by clicking an empty spot of the output panel: Tab can land on the next
		// "Add Filter" and open it again.
		await field.asElement().evaluate((el) => el.blur());
		const box = await (await page.$('[data-test-id="output-panel"], [data-test-id="ndv-output-panel"]')).boundingBox();
		await page.mouse.click(box.x + box.width / 2, box.y + box.height - 20);
		await page.waitForFunction(() =>
			[...document.querySelectorAll('[data-test-id="collection-parameter-option"]')].every((el) => el.offsetParent === null),
		);
		await settle();
	});

	await step('output-panel', async () => {
		await page.click('[data-test-id="node-execute-button"]');
		const outcome = await page.waitForFunction(
			() => {
				const problem = [...document.querySelectorAll('.el-notification')].find((el) => /problem|error/i.test(el.textContent));
				if (problem) return `error: ${problem.innerText}`;
				const panel = document.querySelector('[data-test-id="ndv-output-panel"], [data-test-id="output-panel"]');
				return panel && /\d+\s+items?/.test(panel.textContent) && !panel.querySelector('[data-test-id="ndv-executing"]') && 'ok';
			},
			{ timeout: 120_000 },
		);
		const result = await outcome.jsonValue();
		if (result !== 'ok') throw new Error(`executing the node: ${result}`);
		// The item count shows before the table has drawn its rows (slower on a busy machine): wait for a job uid.
		await page
			.waitForFunction(
				() => /\b\d{12,}\b/.test(document.querySelector('[data-test-id="ndv-output-panel"], [data-test-id="output-panel"]')?.innerText ?? ''),
				{ timeout: 60_000 },
			)
			.catch(() => undefined);
		await settle();
		outputText = await page.$eval('[data-test-id="ndv-output-panel"], [data-test-id="output-panel"]', (el) => el.innerText);
	});

	const count = Number(/(\d+)\s+items?/.exec(outputText)?.[1] ?? 0);
	if (count < 1) throw new Error(`the output panel shows no items: ${outputText.slice(0, 300)}`);
	if (/error|problem/i.test(outputText.split('\n').slice(0, 5).join(' '))) throw new Error(`the output panel shows an error: ${outputText.slice(0, 300)}`);
	const uid = /\b\d{12,}\b/.exec(outputText)?.[0];
	if (!uid) throw new Error(`the output panel shows no job uid: ${outputText.slice(0, 300)}`);
	say(`output panel: ${count} items, first job ${uid}`);
} finally {
	await browser.close();
}

const ours = consoleErrors.filter((text) => PACKAGE_MENTION.test(text));
for (const text of consoleErrors) say(`console error${ours.includes(text) ? ' (names the package)' : ''}: ${text.slice(0, 300)}`);
if (ours.length > 0) {
	console.error(`editor: ${ours.length} console errors name the package`);
	process.exit(1);
}
say('editor: ok');
