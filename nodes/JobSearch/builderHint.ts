/**
 * What n8n's AI workflow builder reads to pick a node for a request: n8n 2.41's
 * INodeTypeDescription.builderHint. The 2.8 types this package builds against lack the field, so
 * it is spread into the description (typed as nothing) instead of written as a key.
 */
export interface BuilderHint {
	searchHint: string;
	relatedNodes?: Array<{ nodeType: string; relationHint: string }>;
}

export function builderHint(hint: BuilderHint): object {
	return { builderHint: hint };
}
