import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// n8n-core writes ~/.n8n/config on first use: keep every test file out of the real home folder,
// in a folder of its own that is removed when the file is done (one that was given is kept).
const created = process.env.N8N_USER_FOLDER ? undefined : mkdtempSync(join(tmpdir(), 'n8n-job-search-test-'));
if (created) process.env.N8N_USER_FOLDER = created;

afterAll(() => {
	if (created) rmSync(created, { recursive: true, force: true });
});
