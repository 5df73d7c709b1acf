import * as workflow from 'n8n-workflow';

import { JobSearchApi } from '../../credentials/JobSearchApi.credentials';
import { PACKAGE_NAME, loadNodeTypes } from '../harness';

// Where n8n may use the key: newer n8n (2.41) reads these fields; the 2.8 line ignores them.

const credential = new JobSearchApi();

/** What n8n's loader names as the credential's supported nodes: every node of the package that declares it. */
function nodesDeclaringTheCredential(): string[] {
	const { nodes } = loadNodeTypes();
	return Object.entries(nodes)
		.filter(([type, node]) => type.startsWith(`${PACKAGE_NAME}.`) && node.description.credentials?.some((c) => c.name === credential.name))
		.map(([, node]) => node.description.name)
		.sort();
}

describe('where the Job Search API credential may be used', () => {
	it('is restricted to the supported nodes, so an HTTP Request node cannot send the key elsewhere', () => {
		expect(credential.restrictToSupportedNodes).toBe(true);
	});

	it('names as supported nodes exactly this package’s nodes that use it, as n8n infers them', () => {
		expect([...credential.supportedNodes].sort()).toEqual(nodesDeclaringTheCredential());
		expect(credential.supportedNodes).toEqual(['jobSearch', 'jobSearchTrigger']);
	});

	it('gets no "Allowed HTTP Request Domains" fields, which govern only nodes that cannot use it', () => {
		expect(credential.hideDomainRestrictionFields).toBe(true);
		// n8n 2.41 adds the fields when it loads a credential; the 2.8 line has no such step.
		const inject = (workflow as unknown as { injectDomainRestrictionFields?: (type: object) => { name: string }[] }).injectDomainRestrictionFields;
		if (!inject) return;
		expect(inject(credential).map((p) => p.name)).toEqual(credential.properties.map((p) => p.name));
		const unhidden = Object.assign(new JobSearchApi(), { hideDomainRestrictionFields: false });
		expect(inject(unhidden).map((p) => p.name)).toContain('allowedHttpRequestDomains');
	});
});
