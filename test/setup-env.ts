import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// n8n-core writes ~/.n8n/config on first use; keep every test run out of the real home folder.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-job-search-test-'));
