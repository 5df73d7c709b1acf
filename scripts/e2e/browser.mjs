// The editor checks' shared start: Debian's Chromium driven by puppeteer-core, one page, and a
// `step` that screenshots what it did (or where it failed) and says so.
import puppeteer from 'puppeteer-core';

export const STEP_TIMEOUT_MS = 60_000;

export const say = (message) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

/** A headless browser and its page; `shotName(name)` names the screenshot of a step that worked. */
export async function openEditorPage(shots, shotName, failedPrefix) {
	const browser = await puppeteer.launch({
		executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
		defaultViewport: { width: 1440, height: 900 },
	});
	const page = await browser.newPage();
	page.setDefaultTimeout(STEP_TIMEOUT_MS);
	async function step(name, action) {
		try {
			await action();
		} catch (error) {
			await page.screenshot({ path: `${shots}/${failedPrefix}${name}.png` }).catch(() => undefined);
			throw new Error(`step "${name}": ${error.message}`);
		}
		await page.screenshot({ path: `${shots}/${shotName(name)}.png` });
		say(`${name}: ok`);
	}
	return { browser, page, step };
}
