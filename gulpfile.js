const path = require('path');
const { task, src, dest } = require('gulp');

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

task('build:icons', copyIcons);
