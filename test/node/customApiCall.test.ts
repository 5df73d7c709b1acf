import { deepCopy, type ICredentialType, type INodePropertyOptions, type INodeTypeDescription } from 'n8n-workflow';

import { JOB_SEARCH_TRIGGER_TYPE, JOB_SEARCH_TYPE, loadNodeTypes } from '../harness/nodeTypes';
import { runJobSearch } from './helpers';
import { useTestService } from '../support/service';

const service = useTestService();

/**
 * What n8n's LoadNodesAndCredentials.injectCustomApiCallOptions does once the packages are loaded
 * (the same in n8n 2.8.4 and 2.41.1): a node whose credential has `authenticate` (or extends an
 * OAuth credential) gets a "Custom API Call" option at the end of its top-level Resource and
 * Operation lists, if n8n takes its description for the node's latest version.
 */
function injectLikeN8n(description: INodeTypeDescription, credentials: Map<string, ICredentialType>): void {
	const isLatestVersion = description.defaultVersion === undefined || description.defaultVersion === description.version;
	if (!isLatestVersion) return;
	const supportsProxyAuth = (description.credentials ?? []).some(({ name }) => {
		const type = credentials.get(name);
		return type !== undefined && (type.authenticate !== undefined || (type.extends ?? []).some((parent) => ['oAuth2Api', 'googleOAuth2Api', 'oAuth1Api'].includes(parent)));
	});
	if (!supportsProxyAuth) return;
	for (const p of description.properties) {
		if (['resource', 'operation'].includes(p.name) && Array.isArray(p.options) && (p.options[p.options.length - 1] as INodePropertyOptions).name !== 'Custom API Call') {
			p.options.push({ name: 'Custom API Call', value: '__CUSTOM_API_CALL__' });
		}
	}
}

/** The descriptions n8n serves to its editor for this package: each node, and the node as an AI tool. */
function servedDescriptions(change: (d: INodeTypeDescription) => void = () => undefined): INodeTypeDescription[] {
	const { nodes, credentialTypes } = loadNodeTypes();
	const descriptions = [JOB_SEARCH_TYPE, JOB_SEARCH_TRIGGER_TYPE].map((type) => deepCopy(nodes[type].description) as INodeTypeDescription);
	const tool = deepCopy(descriptions[0]);
	tool.name += 'Tool';
	descriptions.push(tool);
	for (const description of descriptions) {
		change(description);
		injectLikeN8n(description, credentialTypes);
	}
	return descriptions;
}

const offered = (descriptions: INodeTypeDescription[]): string[] =>
	descriptions.flatMap((d) => d.properties.flatMap((p) => ((p.options ?? []) as INodePropertyOptions[]).filter((o) => o.name === 'Custom API Call').map(() => `${d.name}.${p.name}`)));

describe('Custom API Call', () => {
	it('is not offered in the Resource or Operation lists of the node or its AI tool', () => {
		expect(offered(servedDescriptions())).toEqual([]);
	});

	it('would be offered with the version given as a plain number, as n8n adds it to such nodes', () => {
		const asPlainVersion = servedDescriptions((d) => {
			d.version = 1;
		});
		expect(offered(asPlainVersion)).toEqual(expect.arrayContaining(['jobSearch.resource', 'jobSearch.operation', 'jobSearchTool.operation']));
	});

	it('stays one version, 1, to n8n', () => {
		const { version, defaultVersion } = loadNodeTypes().nodes[JOB_SEARCH_TYPE].description;
		expect([version, defaultVersion]).toEqual([[1], 1]);
	});

	it('saved in a workflow while it was offered, fails saying which operations there are, before any request', async () => {
		const { id, credentials } = await service.account('pro');
		const { error } = await runJobSearch({ resource: 'client', operation: '__CUSTOM_API_CALL__' }, { credentials });
		expect(error?.message).toBe('Custom API Call is not an operation of Job Search [item 0]');
		expect(error?.description).toMatch(/^Choose Search, Get, Get Activity or Get History in Resource and Operation\./);
		expect(service.server.admin.callLog(id)).toEqual([]);
	});
});
