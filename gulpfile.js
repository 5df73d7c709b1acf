const path = require('path');
const { task, src, dest, parallel } = require('gulp');

// tsc compiles only .ts. What `n8n-node build` copies beside the compiled files, this copies too:
// node and credential icons, and the output schemas n8n serves from `<node dir>/__schema__/`.
const STATIC_FILES = ['**/*.{png,svg}', '**/__schema__/**/*.json'];

function copyStaticFiles(folder) {
	const copy = () =>
		src(
			STATIC_FILES.map((pattern) => path.join(folder, pattern)),
			{ encoding: false, allowEmpty: true, base: folder },
		).pipe(dest(path.resolve('dist', folder)));
	copy.displayName = `copy ${folder} static files`;
	return copy;
}

task('build:static', parallel(copyStaticFiles('nodes'), copyStaticFiles('credentials')));
