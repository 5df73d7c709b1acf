import { commonPollingParameters } from 'n8n-core/dist/nodes-loader/constants';
import { existsSync } from 'fs';
import { createRequire } from 'module';
import { join } from 'path';
import {
	NodeConnectionTypes,
	NodeHelpers,
	type ICredentialType,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
	type INodeTypeDescription,
	type IVersionedNodeType,
} from 'n8n-workflow';

import { JobSearchApi } from '../../credentials/JobSearchApi.credentials';

/** Node types load under the package name, as n8n names them for an installed community package. */
export const PACKAGE_NAME = 'n8n-nodes-job-search';
export const JOB_SEARCH_TYPE = `${PACKAGE_NAME}.jobSearch`;
export const JOB_SEARCH_TRIGGER_TYPE = `${PACKAGE_NAME}.jobSearchTrigger`;
/** A harness-only node that emits the items in its `items` parameter, standing in for a trigger. */
export const INPUT_TYPE = 'harness.input';

class InputNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Input',
		name: 'input',
		group: ['input'],
		version: 1,
		description: 'Emits the items in its "items" parameter',
		defaults: { name: 'Input' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as unknown;
		const list = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [list.map((json) => ({ json }))];
	}
}

const nodesDir = join(__dirname, '..', '..', 'nodes');

/**
 * Loads a node class from its .ts source by full path: "X.node" beside the codex "X.node.json"
 * would resolve to the JSON under ts-node, whose resolution tries .json before .ts.
 */
function loadNodeClass(folder: string, className: string): INodeType | undefined {
	const source = join(nodesDir, folder, `${className}.node.ts`);
	if (!existsSync(source)) return undefined;
	const mod = createRequire(__filename)(source) as Record<string, new () => INodeType>;
	const NodeClass = mod[className];
	return NodeClass ? new NodeClass() : undefined;
}

/** n8n's node loader gives every polling node its Poll Times field: so does the harness, so a poll reads it as in n8n. */
function withPollTimes(nodeType: INodeType): INodeType {
	nodeType.description.properties = [...commonPollingParameters, ...nodeType.description.properties];
	return nodeType;
}

const extraNodeTypes: Record<string, INodeType | IVersionedNodeType> = {};

/**
 * Adds a node type under `type` to every loadNodeTypes() after this call, so a bench can run
 * n8n's own nodes (HTTP Request) or a minimal probe node beside this package's in the same n8n-core.
 */
export function registerNodeType(type: string, nodeType: INodeType | IVersionedNodeType): void {
	extraNodeTypes[type] = nodeType;
}

export interface LoadedTypes {
	nodeTypes: INodeTypes;
	credentialTypes: Map<string, ICredentialType>;
	/** Node type name → the node type, package-prefixed. */
	nodes: Record<string, INodeType>;
}

/** The package's node and credential classes, from the TypeScript sources (no build needed). */
export function loadNodeTypes(): LoadedTypes {
	const nodes: Record<string, INodeType> = {
		[JOB_SEARCH_TYPE]: loadNodeClass('JobSearch', 'JobSearch')!,
		[JOB_SEARCH_TRIGGER_TYPE]: withPollTimes(loadNodeClass('JobSearch', 'JobSearchTrigger')!),
		[INPUT_TYPE]: new InputNode(),
	};
	const credential = new JobSearchApi();
	const credentialTypes = new Map<string, ICredentialType>([[credential.name, credential]]);
	const nodeTypes: INodeTypes = {
		getByName: (type: string): INodeType | IVersionedNodeType => {
			const found = nodes[type] ?? extraNodeTypes[type];
			if (!found) throw new Error(`Unknown node type ${type}`);
			return found;
		},
		getByNameAndVersion: (type: string, version?: number): INodeType => {
			const found = nodes[type] ?? extraNodeTypes[type];
			if (!found) throw new Error(`Unknown node type ${type}`);
			return NodeHelpers.getVersionedNodeType(found, version);
		},
		getKnownTypes: () => ({}),
	};
	return { nodeTypes, credentialTypes, nodes };
}
