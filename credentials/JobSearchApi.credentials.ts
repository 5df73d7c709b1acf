import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class JobSearchApi implements ICredentialType {
	name = 'jobSearchApi';

	displayName = 'Job Search API';

	icon: Icon = { light: 'file:jobSearchApi.svg', dark: 'file:jobSearchApi.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-job-search/n8n-nodes-job-search#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			placeholder: 'gm_…',
			description: 'The key from the account dashboard. It starts with gm_ and is shown only once, when created.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.getmany.com.ua',
			description: 'Where the REST tools live (POST {Base URL}/v1/&lt;tool&gt;). Change it only for a self-hosted or test server.',
		},
		{
			displayName: 'MCP URL',
			name: 'mcpUrl',
			type: 'string',
			default: 'https://mcp.getmany.com.ua/mcp',
			description: 'The MCP endpoint. Testing the credential lists its tools there, which costs no credit.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	// MCP tools/list checks the key but is free and not rate-limited, so a test spends nothing.
	test: ICredentialTestRequest = {
		request: {
			method: 'POST',
			url: '={{$credentials.mcpUrl}}',
			headers: {
				'Content-Type': 'application/json',
				Accept: 'application/json, text/event-stream',
			},
			body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
			json: true,
			// n8n would follow a redirect to another host with the key in the header.
			sendCredentialsOnCrossOriginRedirect: false,
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The API key is missing, wrong or revoked. Paste a current key (it starts with gm_) from the dashboard.',
				},
			},
		],
	};
}
