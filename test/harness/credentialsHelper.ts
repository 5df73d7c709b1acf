import {
	ICredentialsHelper,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type ICredentials,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeProperties,
	type IRequestOptionsSimplified,
	type IWorkflowExecuteAdditionalData,
	type Workflow,
} from 'n8n-workflow';

/**
 * A real credentials helper, minus the database and encryption: it serves credential data by
 * id with the type's defaults applied, and applies a credential's generic `authenticate` with
 * its expressions resolved by the workflow, as n8n's CredentialsHelper does.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Map<string, ICredentialType>,
		private readonly store: Map<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(name: string): string[] {
		return this.types.get(name)?.extends ?? [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const type = this.types.get(typeName);
		const auth = type?.authenticate;
		const options = requestOptions as IHttpRequestOptions & Record<string, Record<string, unknown>>;
		if (typeof auth === 'function') return await auth(credentials, options);
		if (auth?.type !== 'generic') return options;
		const resolve = (value: unknown) =>
			typeof value === 'string' && value.startsWith('=')
				? workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials }, undefined, '')
				: value;
		for (const [where, entries] of Object.entries(auth.properties)) {
			options[where] = { ...(options[where] ?? {}) };
			for (const [key, value] of Object.entries(entries as Record<string, unknown>)) {
				options[where][String(resolve(key))] = resolve(value);
			}
		}
		return options;
	}

	// Newer n8n-core (2.41) asks these too; the harness's workflows use only this package's
	// credential with its own nodes, which is always allowed, and it needs no pre-authentication.
	isCredentialUsableByNode(_credentialType: string, _nodeType: string): boolean {
		return true;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		_node: INode,
		_credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	// Only n8n's server reads encrypted credentials; node execution asks for getDecrypted.
	async getCredentials(_nodeCredentials: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		throw new Error(`The harness has no encrypted credentials (asked for ${type})`);
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.store.get(nodeCredentials.id ?? '');
		if (!data) throw new Error(`No credential with id ${nodeCredentials.id ?? '(none)'}`);
		return this.withDefaults(type, data);
	}

	withDefaults(type: string, data: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
		const defaults = Object.fromEntries(
			this.getCredentialsProperties(type).map((p) => [p.name, p.default as unknown]),
		) as ICredentialDataDecryptedObject;
		const given = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined && v !== ''));
		return { ...defaults, ...given };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types.get(type)?.properties ?? [];
	}
}
