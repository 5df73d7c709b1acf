import { JOB_SEARCH_TRIGGER_TYPE, JOB_SEARCH_TYPE, loadNodeTypes } from '../harness';

// n8n's AI workflow builder (n8n 2.41) searches node types by builderHint.searchHint.
const hintOf = (type: string) =>
	(loadNodeTypes().nodes[type].description as { builderHint?: { searchHint?: string; relatedNodes?: Array<{ nodeType: string }> } })
		.builderHint;

describe("hints for n8n's AI workflow builder", () => {
	it('offer the trigger for "alert me about new Upwork jobs", in plain words', () => {
		const hint = hintOf(JOB_SEARCH_TRIGGER_TYPE)?.searchHint ?? '';
		expect(hint).toMatch(/^Alert me about new Upwork jobs/);
		for (const word of ['alert', 'new', 'upwork', 'jobs', 'schedule']) expect(hint.toLowerCase()).toContain(word);
		expect(hint).not.toMatch(/[{}<>`]|search_jobs|microcents/);
	});

	it('offer Job Search for searching and looking up jobs, and point each node at the other', () => {
		expect(hintOf(JOB_SEARCH_TYPE)?.searchHint).toMatch(/^Search Upwork freelance job postings.*AI agent tool.*use Job Search Trigger\.$/);
		const types = Object.keys(loadNodeTypes().nodes);
		for (const [type, other] of [
			[JOB_SEARCH_TYPE, JOB_SEARCH_TRIGGER_TYPE],
			[JOB_SEARCH_TRIGGER_TYPE, JOB_SEARCH_TYPE],
		]) {
			expect(hintOf(type)?.relatedNodes?.map((r) => r.nodeType)).toEqual([other]);
			expect(types).toContain(other);
		}
	});
});
