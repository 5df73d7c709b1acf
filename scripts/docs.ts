import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { FILTER_REFERENCE, withFilterTable } from './filterTable';

// `npm run docs`: rewrites the generated filter table of docs/filters.md from the filter schema.
const path = join(__dirname, '..', FILTER_REFERENCE);
const before = readFileSync(path, 'utf8');
const after = withFilterTable(before);
writeFileSync(path, after);
console.log(before === after ? `${FILTER_REFERENCE} is up to date` : `${FILTER_REFERENCE} filter table rewritten`);
