// The two conversations of the agent e2e, shared by the workflows (workflows.mjs), the scripted
// model (model-standin.mjs) and the checks (check-agent.mjs). Each is one AI Agent node with its
// own OpenAI Chat Model and Job Search tools; the model tells them apart by the tag in the prompt.
// Tool names are n8n's from the node names (spaces become underscores).

/** $fromAI, as a user writes it by hand: a key, a description for the model, a type. */
const fromAI = (key, description, type) => `={{ $fromAI('${key}', \`${description}\`, '${type}') }}`;

const search = {
	resource: 'job',
	operation: 'search',
	limit: fromAI('limit', 'How many jobs to return (each is billed)', 'number'),
	basicFilters: { searchPeriod: '720' },
};

export const SCENARIOS = [
	{
		tag: 'search-then-read',
		agentName: 'AI Agent: Search, Then Read a Job',
		prompt: 'Find React jobs posted in the last 30 days and tell me about the first one in full, with its link.',
		tools: [
			{
				node: 'Search Jobs',
				parameters: {
					...search,
					keywordFilters: { includeKeywordsKeywords: fromAI('keywords', 'Comma-separated keywords, such as react, next.js', 'string') },
				},
			},
			{
				node: 'Get Job',
				parameters: {
					resource: 'job',
					operation: 'get',
					jobUid: { __rl: true, mode: 'id', value: fromAI('jobUid', 'The uid of a job from a search result', 'string') },
				},
			},
		],
	},
	{
		tag: 'refused-then-corrected',
		agentName: 'AI Agent: A Refused Search, Corrected',
		prompt: 'Find jobs from clients in the United Kingdom that pay 40 to 80 dollars an hour.',
		tools: [
			{
				node: 'Search Jobs by Country and Rate',
				parameters: {
					...search,
					budgetFilters: {
						budgetHourlyRateMin: fromAI('minHourlyRate', 'Lowest hourly rate in USD', 'number'),
						budgetHourlyRateMax: fromAI('maxHourlyRate', 'Highest hourly rate in USD', 'number'),
					},
					clientFilters: { clientIncludeLocations: fromAI('clientCountries', "Countries of the client", 'string') },
				},
			},
		],
	},
];

export const toolName = (node) => node.replace(/ /g, '_');

/**
 * The arguments a refusal must name for the model to know what to change: the argument as the
 * model knows it, or the field's label (either is enough; wording is free).
 */
export const REFUSED = {
	country: ['clientCountries', 'Client Countries'],
	rates: ['minHourlyRate', 'maxHourlyRate', 'Hourly Rate Min', 'Hourly Rate Max'],
};

/** The tag that tells the scripted model which conversation it is in, and the checks which agent asked. */
export const promptFor = (scenario, agentVersion) => `${scenario.prompt} (script: ${scenario.tag}, agent ${agentVersion})`;

/** The scenario and agent version a prompt was tagged with, or undefined. */
export function tagOf(prompt) {
	const match = /\(script: ([a-z-]+), agent ([0-9.]+)\)/.exec(prompt);
	const scenario = match && SCENARIOS.find((s) => s.tag === match[1]);
	return scenario ? { scenario, agentVersion: match[2] } : undefined;
}
