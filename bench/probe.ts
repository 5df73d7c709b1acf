import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

export const HELPER_PROBE_TYPE = 'harness.helperProbe';

/**
 * n8n's helper with nothing of ours around it: a minimal node that POSTs each input item's JSON
 * (or `{ jobUid }` from its Job UID expression, evaluated per item as every node does) to
 * /v1/<tool> through `httpRequestWithAuthentication`, `concurrency` at a time, and emits the
 * answer's `data` (one item per job when it holds `jobs`). With "Node's Options" it sends the
 * request options the Job Search node's transport sends. What it costs is n8n's, not the node's.
 */
export class HelperProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Helper Probe',
		name: 'helperProbe',
		group: ['transform'],
		version: 1,
		description: 'Calls the service through httpRequestWithAuthentication and nothing else',
		defaults: { name: 'Helper Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'jobSearchApi', required: true }],
		properties: [
			{ displayName: 'Tool', name: 'tool', type: 'string', default: 'get_job' },
			{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 1 },
			{ displayName: 'Job UID', name: 'jobUid', type: 'string', default: '', description: 'When set (an expression, as a user writes it), the body is { jobUid }; else the item' },
			{ displayName: "Node's Options", name: 'nodesOptions', type: 'boolean', default: false },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const tool = this.getNodeParameter('tool', 0) as string;
		const concurrency = this.getNodeParameter('concurrency', 0) as number;
		const nodesOptions = this.getNodeParameter('nodesOptions', 0) as boolean;
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('jobSearchApi');
		const url = `${baseUrl}/v1/${tool}`;
		const output: INodeExecutionData[][] = new Array(items.length);
		let next = 0;
		const worker = async (): Promise<void> => {
			while (next < items.length) {
				const i = next++;
				const jobUid = this.getNodeParameter('jobUid', i) as string;
				const options: IHttpRequestOptions = { method: 'POST', url, body: jobUid ? { jobUid } : items[i].json, json: true };
				if (nodesOptions) {
					Object.assign(options, {
						headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': 'bench' },
						timeout: 30_000,
						returnFullResponse: true,
						ignoreHttpStatusErrors: true,
						sendCredentialsOnCrossOriginRedirect: false,
					});
				}
				const answer = (await this.helpers.httpRequestWithAuthentication.call(this, 'jobSearchApi', options)) as IDataObject;
				const { data } = (nodesOptions ? answer.body : answer) as { data: IDataObject };
				const pairedItem = { item: i };
				output[i] = Array.isArray(data.jobs) ? (data.jobs as IDataObject[]).map((json) => ({ json, pairedItem })) : [{ json: data, pairedItem }];
			}
		};
		await Promise.all(Array.from({ length: concurrency }, worker));
		return [output.flat()];
	}
}
