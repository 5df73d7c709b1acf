import { existsSync, readFileSync, readdirSync } from 'fs';
import { dirname, join, normalize, relative } from 'path';
import * as ts from 'typescript';

/** File → the files of the package it imports (relative imports only), paths relative to the repository. */
type ImportGraph = Map<string, string[]>;

const repo = join(__dirname, '..', '..');

function sourcesUnder(folder: string): string[] {
	return readdirSync(join(repo, folder), { withFileTypes: true }).flatMap((entry) => {
		const path = `${folder}/${entry.name}`;
		if (entry.isDirectory()) return sourcesUnder(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

function resolved(from: string, specifier: string): string | undefined {
	const base = normalize(join(dirname(from), specifier));
	return [`${base}.ts`, `${base}/index.ts`, base].find((path) => path.endsWith('.ts') && existsSync(join(repo, path)));
}

/** Every import, export … from, and import() of the shipped code, as TypeScript itself reads them. */
function importGraph(folders: readonly string[]): ImportGraph {
	const files = folders.flatMap(sourcesUnder);
	return new Map(
		files.map((file) => {
			const { importedFiles } = ts.preProcessFile(readFileSync(join(repo, file), 'utf8'), true, true);
			const local = importedFiles.map((i) => i.fileName).filter((name) => name.startsWith('.'));
			return [file, local.map((name) => resolved(file, name) ?? `${file}: unresolved ${name}`)];
		}),
	);
}

/** Imports of a file that lies directly in one of the importing file's ancestor folders: upward. */
function upwardImports(graph: ImportGraph): string[] {
	return [...graph].flatMap(([file, imported]) =>
		imported.filter((target) => {
			const up = relative(dirname(file), dirname(target));
			return up !== '' && up.split('/').every((part) => part === '..');
		}).map((target) => `${file} -> ${target}`),
	);
}

/** The cycles of a graph, each as the path that closes it (found by depth-first search). */
function cycles(edges: Map<string, readonly string[]>): string[] {
	const state = new Map<string, 'open' | 'done'>();
	const path: string[] = [];
	const found: string[] = [];
	const visit = (node: string): void => {
		state.set(node, 'open');
		path.push(node);
		for (const next of edges.get(node) ?? []) {
			if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].join(' -> '));
			else if (!state.has(next)) visit(next);
		}
		path.pop();
		state.set(node, 'done');
	};
	for (const node of edges.keys()) if (!state.has(node)) visit(node);
	return found;
}

/** Folder → the other folders its own files import from. */
function folderGraph(graph: ImportGraph): Map<string, string[]> {
	const folders = new Map<string, Set<string>>();
	for (const [file, imported] of graph) {
		const from = dirname(file);
		const targets = folders.get(from) ?? new Set<string>();
		for (const target of imported) if (dirname(target) !== from) targets.add(dirname(target));
		folders.set(from, targets);
	}
	return new Map([...folders].map(([folder, targets]) => [folder, [...targets]]));
}

describe('the layout of the shipped code', () => {
	it('is judged by rules that see an upward import and a cycle of files or of folders', () => {
		const graph: ImportGraph = new Map([
			['n/A.node.ts', ['n/actions/router.ts']],
			['n/actions/router.ts', ['n/actions/job/get.ts']],
			['n/actions/job/get.ts', ['n/actions/types.ts', 'n/filters/index.ts']],
			['n/actions/types.ts', []],
			['n/filters/index.ts', ['n/filters/a.ts']],
			['n/filters/a.ts', ['n/filters/index.ts']],
			['n/output/x.ts', ['n/service/y.ts']],
			['n/service/y.ts', ['n/output/z.ts']],
			['n/output/z.ts', []],
		]);
		expect(upwardImports(graph)).toEqual(['n/actions/job/get.ts -> n/actions/types.ts']);
		expect(cycles(graph)).toEqual(['n/filters/index.ts -> n/filters/a.ts -> n/filters/index.ts']);
		expect(cycles(folderGraph(graph))).toEqual(['n/actions -> n/actions/job -> n/actions', 'n/output -> n/service -> n/output']);
	});

	const graph = importGraph(['nodes', 'credentials']);

	it('reads every file of nodes/ and credentials/ and resolves each of their imports', () => {
		expect(graph.size).toBeGreaterThan(50);
		expect([...graph.values()].flat().filter((target) => target.includes('unresolved'))).toEqual([]);
	});

	it('imports only downward or sideways: no file imports a file of a folder above its own', () => {
		expect(upwardImports(graph)).toEqual([]);
	});

	it('has no import cycle, between files or between folders', () => {
		expect(cycles(graph)).toEqual([]);
		expect(cycles(folderGraph(graph))).toEqual([]);
	});
});
