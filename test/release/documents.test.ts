import { existsSync, readFileSync } from 'fs';
import { dirname, join, normalize } from 'path';

const repo = join(__dirname, '..', '..');
const DOCUMENTS = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'server/README.md', 'bench/README.md', 'docs/filters.md', 'docs/service.md', 'docs/ai-agent.md'];
const read = (file: string) => readFileSync(join(repo, file), 'utf8');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
	heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');

function anchorsOf(file: string): Set<string> {
	const text = read(file);
	const headings = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1].trim()));
	const explicit = [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]);
	return new Set([...headings, ...explicit]);
}

/** Every relative link of a document, with the file it points to and the anchor, if any. */
function linksOf(file: string): Array<{ link: string; target: string; anchor?: string }> {
	const text = read(file).replace(/```[\s\S]*?```/g, '');
	return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
		.map((m) => m[1])
		.filter((link) => !/^[a-z]+:/.test(link))
		.map((link) => {
			const [path, anchor] = link.split('#');
			return { link, target: path === '' ? file : normalize(join(dirname(file), path)), anchor };
		});
}

describe('the documents', () => {
	it('keep the README short enough to read in ten minutes, with a table of contents', () => {
		const readme = read('README.md');
		expect(readme.split('\n').length).toBeLessThan(350);
		const contents = readme.split('\n\n').find((paragraph) => paragraph.startsWith('**Contents:**')) ?? '';
		const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => anchorOf(m[1])).filter((a) => a !== 'license');
		expect(sections.filter((section) => !contents.includes(`(#${section})`))).toEqual([]);
	});

	it('link only to files that exist and to headings those files have', () => {
		const broken = DOCUMENTS.flatMap((file) =>
			linksOf(file)
				.filter(({ target, anchor }) => !existsSync(join(repo, target)) || (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor)))
				.map(({ link }) => `${file}: ${link}`),
		);
		expect(broken).toEqual([]);
	});
});
