import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { withFilterTable } from './filterTable';

// `npm run docs`: rewrites the generated parts of README.md from the filter schema.
const path = join(__dirname, '..', 'README.md');
const before = readFileSync(path, 'utf8');
const after = withFilterTable(before);
writeFileSync(path, after);
console.log(before === after ? 'README.md is up to date' : 'README.md filter table rewritten');
