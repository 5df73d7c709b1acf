import { readFileSync } from 'fs';
import { join } from 'path';
import type { INodeProperties } from 'n8n-workflow';

import { JOB_SEARCH_TYPE, loadNodeTypes } from '../harness/nodeTypes';
import { FILTERS } from '../../nodes/JobSearch/filters';
import { router } from '../../nodes/JobSearch/actions/router';
import { RATE_LIMIT_WINDOW_MS, SERVICE_PLANS } from '../../nodes/JobSearch/service/plans';

const node = loadNodeTypes().nodes[JOB_SEARCH_TYPE];
const properties = node.description.properties;

describe('the Job Search node description', () => {
	it('offers exactly the operations the router serves, each with an action', () => {
		const offered = properties
			.filter((p) => p.name === 'operation')
			.flatMap((p) => (p.options as Array<{ value: string; action?: string }>).map((o) => [p.displayOptions?.show?.resource?.[0], o.value, o.action]));
		expect(offered.map(([resource, op]) => `${String(resource)}.${String(op)}`).sort()).toEqual(
			Object.entries(router).flatMap(([resource, ops]) => Object.keys(ops).map((op) => `${resource}.${op}`)).sort(),
		);
		for (const [, , action] of offered) expect(action).toEqual(expect.any(String));
	});

	it('has a field for every filter of the schema except limit, which Return All and Limit cover', () => {
		const collections = properties.filter((p) => p.type === 'collection' && p.name.endsWith('Filters'));
		const fields = collections.flatMap((c) => c.options as INodeProperties[]);
		expect(fields).toHaveLength(FILTERS.length - 1);
		expect(properties.map((p) => p.name)).toEqual(expect.arrayContaining(['returnAll', 'limit']));
		const options = properties.find((p) => p.name === 'options')?.options as INodeProperties[];
		expect(options.find((o) => o.name === 'additionalFilters')?.displayOptions).toEqual({ show: { '/operation': ['search'] } });
	});

	it('is usable as an AI Agent tool and has light and dark icons and a codex with aliases', () => {
		expect(node.description.usableAsTool).toBe(true);
		expect(node.description.icon).toEqual({ light: 'file:jobSearch.svg', dark: 'file:jobSearch.dark.svg' });
		const codex = JSON.parse(readFileSync(join(__dirname, '../../nodes/JobSearch/JobSearch.node.json'), 'utf8')) as {
			node: string;
			alias: string[];
		};
		expect(codex.node).toBe(JOB_SEARCH_TYPE);
		expect(codex.alias).toEqual(expect.arrayContaining(['Upwork', 'freelance', 'jobs']));
	});

	it('names a Min Interval that fits a Free key\'s requests of a minute into the minute with a second to spare', () => {
		const options = properties.find((p) => p.name === 'options')!.options as INodeProperties[];
		const help = options.find((o) => o.name === 'minIntervalMs')!.description!;
		const named = Number(/\((\d+) keeps a Free key under/.exec(help)![1]);
		expect(named * SERVICE_PLANS.free.requestsPerMinute).toBeGreaterThanOrEqual(RATE_LIMIT_WINDOW_MS + 1_000);
	});
});
