import { NodeHelpers, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { JOB_SEARCH_TYPE, loadNodeTypes } from '../harness/nodeTypes';
import { updateDisplayOptions } from '../../nodes/JobSearch/actions/common.descriptions';
import { PRICE_MICROCENTS } from '../../nodes/JobSearch/service/pricing';

const node = loadNodeTypes().nodes[JOB_SEARCH_TYPE];
const { properties } = node.description;

/** The fields the editor shows, in order, for these parameters, as the node or as its tool variant. */
function shown(parameters: INodeParameters, asTool = false): string[] {
	const description = asTool ? { ...node.description, name: `${node.description.name}Tool` } : node.description;
	return properties
		.filter((p: INodeProperties) => NodeHelpers.displayParameter(parameters, p, { typeVersion: 1 } as never, description))
		.map((p) => p.name);
}

describe('the Job Search fields in the editor', () => {
	it('shows the required Job UID before Simplify', () => {
		const names = shown({ resource: 'job', operation: 'get' });
		expect(names.indexOf('jobUid')).toBeGreaterThan(-1);
		expect(names.indexOf('jobUid')).toBeLessThan(names.indexOf('simplify'));
	});

	it('shows the tool description and the row cap per call only when the node runs as an AI tool', () => {
		const search = { resource: 'job', operation: 'search', returnAll: false };
		expect(shown(search)).not.toContain('toolDescription');
		expect(shown(search)).not.toContain('toolMaxJobs');
		expect(shown(search, true)).toEqual(expect.arrayContaining(['toolDescription', 'toolMaxJobs']));
		for (const operation of ['get', 'getActivity', 'getHistory']) {
			const resource = operation === 'get' ? 'job' : 'client';
			expect(shown({ resource, operation }, true)).toContain('toolDescription');
			expect(shown({ resource, operation }, true)).not.toContain('toolMaxJobs');
		}
	});

	it('shows the tool description first, as n8n places its own, and the required Job UID next', () => {
		const names = shown({ resource: 'job', operation: 'get' }, true);
		expect(names.slice(2, 4)).toEqual(['toolDescription', 'jobUid']);
		expect(shown({ resource: 'job', operation: 'search', returnAll: false }, true)[2]).toBe('toolDescription');
	});

	it('writes a different tool description for each operation', () => {
		const texts = properties.filter((p) => p.name === 'toolDescription').map((p) => p.default);
		expect(texts).toHaveLength(4);
		expect(new Set(texts).size).toBe(4);
	});

	it('says under Limit what a job costs, at the default and the largest Limit, and that runs over Max Credit are refused', () => {
		const limit = properties.find((p) => p.name === 'limit')!;
		const perJob = PRICE_MICROCENTS.search_jobs / 100_000_000;
		expect(limit.hint).toBe(
			`Each returned job costs $${perJob}: $${(perJob * (limit.default as number)).toFixed(4)} for ${limit.default as number}, $57.90 for 10,000. Runs over Max Credit are refused.`,
		);
		expect(limit.hint!.length).toBeLessThanOrEqual(120);
	});
});

describe('updateDisplayOptions, which places the shared fields', () => {
	const field = (displayOptions?: INodeProperties['displayOptions']): INodeProperties => ({ displayName: 'A', name: 'a', type: 'string', default: '', displayOptions });

	it('shows a field where it is told, and keeps the field\'s own conditions, which win on the same key', () => {
		const [placed] = updateDisplayOptions({ show: { resource: ['job'], '@tool': [false] } }, [
			field({ show: { '@tool': [true], returnAll: [false] }, hide: { toolOutput: ['raw'] } }),
		]);
		expect(placed.displayOptions).toEqual({ show: { resource: ['job'], '@tool': [true], returnAll: [false] }, hide: { toolOutput: ['raw'] } });
	});

	it('gives a field without conditions only the ones it is told, and leaves the field it was given as it was', () => {
		const given = field();
		expect(updateDisplayOptions({ show: { operation: ['get'] } }, [given])[0].displayOptions).toEqual({ show: { operation: ['get'] } });
		expect(given.displayOptions).toBeUndefined();
	});
});
