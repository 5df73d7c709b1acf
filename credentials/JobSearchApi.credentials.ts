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

	/**
	 * The key pays for searches: n8n 2.41 and later lend it to this package's nodes only (their AI
	 * tool variant included), never to an HTTP Request node that could send it anywhere. Older
	 * n8n ignores both fields. n8n names the supported nodes itself from the nodes that declare
	 * the credential; this list says the same, and a test keeps the two in step.
	 */
	supportedNodes = ['jobSearch', 'jobSearchTrigger'];

	restrictToSupportedNodes = true as const;

	/**
	 * n8n 2.41 adds "Allowed HTTP Request Domains" to every credential with an `authenticate`; they
	 * govern only HTTP Request and GraphQL nodes, which cannot use this credential, so they would
	 * be fields that do nothing.
	 */
	hideDomainRestrictionFields = true;

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			placeholder: 'e.g. gm_dGhpc2lzYW5leGFtcGxla2V5',
			description: 'The key from the account dashboard. It starts with gm_ and is shown only once, when created.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.getmany.com.ua',
			description: 'Where the REST tools live (POST {Base URL}/v1/&lt;tool&gt;). Change it only for a self-hosted or test server.',
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

	/**
	 * Tests the Base URL and the key with the request the node itself makes, at no credit: a
	 * get_job without its required jobUid. The service checks the key first (401 invalid_key),
	 * then refuses the input (400 validation_error), and only a 200 is ever charged. (The request
	 * does take one slot of the key's rate limit for a minute.) The nodes call the Base URL only,
	 * so the credential has no MCP URL; one saved by an earlier version is ignored.
	 *
	 * Every answer comes back as data (ignoreHttpStatusErrors) and the rules read its error_code:
	 * n8n 2.8 applies `responseCode` rules only to errors that carry the axios response, which
	 * this request's errors do not, so a 401 would show n8n's stock text instead of ours.
	 * Redirects are not followed: a redirect to a subdomain would keep the key in the header.
	 */
	test: ICredentialTestRequest = {
		request: {
			method: 'POST',
			// A Base URL without http(s):// (e.g. "api.getmany.com.ua") goes to an empty data: URL
			// instead, which answers without a request and so meets the last rule below; sent as
			// it is, n8n would show only "Invalid URL".
			baseURL: '={{ /^\\s*https?:\\/\\//i.test($credentials.baseUrl) ? $credentials.baseUrl : "data:," }}',
			url: '/v1/get_job',
			headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
			body: { jobUid: '' },
			json: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error_code',
					value: 'invalid_key',
					message: 'The API key is missing, wrong or revoked. Paste a current key (it starts with gm_) from the dashboard.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error_code',
					value: 'not_found',
					message:
						'The Base URL reaches the service, but not its tools: remove any path after the host (https://api.getmany.com.ua, without /v1).',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error_code',
					value: 'runtime_error',
					message: 'The service had an internal fault. Test again in a minute.',
				},
			},
			{
				// The service's every answer to this request carries an error_code: one without it
				// came from another host (a web page, a proxy, a redirect).
				type: 'responseSuccessBody',
				properties: {
					key: 'error_code',
					value: undefined,
					message:
						'The Base URL does not answer as the Job Search service. Check it: it starts with https:// and has no path (https://api.getmany.com.ua unless you run your own server).',
				},
			},
		],
	};
}
