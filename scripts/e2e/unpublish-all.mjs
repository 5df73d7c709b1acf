// Unpublishes every published workflow, so that the next n8n started on the same database polls
// only what its own checks publish. Env: N8N_URL, OWNER_EMAIL, OWNER_PASSWORD.
import { login } from './n8n-api.mjs';

const api = await login(process.env.N8N_URL, process.env.OWNER_EMAIL, process.env.OWNER_PASSWORD);
const workflows = await api.get('/workflows');
const published = (Array.isArray(workflows) ? workflows : workflows.data ?? []).filter((w) => w.active);
for (const workflow of published) await api.post(`/workflows/${workflow.id}/deactivate`, {});
console.log(`unpublished ${published.length} workflows: ${published.map((w) => w.id).join(', ')}`);
