const path = require('path');
const { task, src, dest, parallel } = require('gulp');

// tsc compiles only .ts; n8n loads node and credential icons from dist/ beside the compiled files.
function copyIcons() {
	const nodeIcons = src(path.resolve('nodes', '**', '*.{png,svg}'), { encoding: false }).pipe(
		dest(path.resolve('dist', 'nodes')),
	);
	nodeIcons.on('end', () => undefined);
	return src(path.resolve('credentials', '**', '*.{png,svg}'), { encoding: false }).pipe(
		dest(path.resolve('dist', 'credentials')),
	);
}

// n8n serves <node dir>/__schema__/v<x.y.z>/<resource>/<operation>.json to the editor (the output
// preview before a run); `npm run schemas` writes them. Same glob as `n8n-node build` copies.
function copySchemas() {
	return src(path.resolve('nodes', '**', '__schema__', '**', '*.json')).pipe(dest(path.resolve('dist', 'nodes')));
}

task('build:icons', parallel(copyIcons, copySchemas));
task('build:schemas', copySchemas);
