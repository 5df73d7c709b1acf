import { INPUT_BOUNDS } from './schema';
import { toJsonSchema, type JsonSchema, type SchemaOptions } from './toJsonSchema';
import { JOB_UID_PATTERN } from './wireFormats';

/**
 * The four tools of the service and their inputs: one list for the node's operations, the
 * server's routes and MCP `tools/list`.
 */
export const TOOL_NAMES = ['search_jobs', 'get_job', 'get_client_activity', 'get_client_history'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export interface ToolDefinition {
	name: ToolName;
	title: string;
	description: string;
	/** Needs a plan with the premium addon (403 addon_forbidden otherwise). */
	premium: boolean;
	inputSchema: JsonSchema;
}

const jobUidSchema: JsonSchema = {
	type: 'string',
	maxLength: INPUT_BOUNDS.jobUidLength,
	pattern: JOB_UID_PATTERN,
	title: 'Job UID',
	description: 'The job identifier, a string of digits as returned in `uid` by search_jobs. Example: "1955020056847176693".',
	examples: ['1955020056847176693'],
};

function jobUidInput(extra: Record<string, JsonSchema> = {}): JsonSchema {
	return {
		type: 'object',
		additionalProperties: false,
		required: ['jobUid'],
		properties: { jobUid: jobUidSchema, ...extra },
	};
}

/** The tools as MCP lists them; `acceptedSpellings` for the schemas that validate input. */
export function toolDefinitions(options: SchemaOptions = {}): ToolDefinition[] {
	return [
		{
			name: 'search_jobs',
			title: 'Search Jobs',
			premium: false,
			description:
				'Search Upwork job postings, newest first, with filters over keywords, categories, budget, client and freelancer requirements. Billed per returned row: keep `limit` small. Keys are flat (the dots are part of the name); lists are JSON arrays, countries entries such as {"type": "COUNTRY", "value": "GB"}.',
			inputSchema: toJsonSchema(options),
		},
		{
			name: 'get_job',
			title: 'Get Job',
			premium: false,
			description:
				'Full details of one job by uid: description, skills, budget, client stats and application cost.',
			inputSchema: jobUidInput({
				withClientHistory: {
					type: 'boolean',
					title: 'With Client History',
					description: "Also return the client's work history (needs the premium addon).",
				},
			}),
		},
		{
			name: 'get_client_activity',
			title: 'Get Client Activity',
			premium: true,
			description:
				"Activity on a job: proposals, the client's last activity, interviews, invites sent and unanswered. Premium addon.",
			inputSchema: jobUidInput(),
		},
		{
			name: 'get_client_history',
			title: 'Get Client History',
			premium: true,
			description:
				"The client's work history and feedback from previous freelancers for a job. Premium addon.",
			inputSchema: jobUidInput(),
		},
	];
}
