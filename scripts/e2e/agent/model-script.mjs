// The scripted model's turns: from the messages of one request (the whole conversation so far,
// as every chat request carries it), the next turn: a tool call or the final answer. It reads
// the tool answers as a model would (reading.mjs): it calls Get Job with a uid the search gave,
// and corrects a refused argument only when the refusal names it.
import { isEmptyAnswer, jobRows, messageText, names } from './reading.mjs';
import { REFUSED, tagOf, toolName } from './scenarios.mjs';

const FINAL_MARK = 'Scripted answer:';
const call = (node, args) => ({ call: { name: toolName(node), args } });
const answer = (text) => ({ text: `${FINAL_MARK} ${text}` });
/** A final answer that says the script could not go on: the checks fail on it. */
const giveUp = (text) => ({ ...answer(text), gaveUp: true });

const TURNS = {
	'search-then-read'(answers) {
		if (answers.length === 0) return call('Search Jobs', { keywords: 'react', limit: 3 });
		const rows = jobRows(answers[0]);
		if (rows.length === 0) return giveUp('the search gave no job to read.');
		if (answers.length === 1) return call('Get Job', { jobUid: rows[0].uid });
		const [job] = jobRows(answers[1]);
		return answer(`read ${rows[0].uid} in full: "${job?.title ?? '?'}", ${job?.url ?? 'no link'}.`);
	},
	'refused-then-corrected'(answers) {
		const tool = 'Search Jobs by Country and Rate';
		const asked = { clientCountries: 'United Kingdom', minHourlyRate: 40, maxHourlyRate: 80, limit: 3 };
		if (answers.length === 0) return call(tool, asked);
		const last = answers[answers.length - 1];
		if (answers.length === 1) {
			if (isEmptyAnswer(last) || !names(last, ...REFUSED.country)) return giveUp(`the refusal did not say which argument to change: ${JSON.stringify(last)}`);
			// Corrected, with a second slip: the rates the wrong way round.
			return call(tool, { ...asked, clientCountries: 'GB', minHourlyRate: 80, maxHourlyRate: 40 });
		}
		if (answers.length === 2) {
			if (isEmptyAnswer(last) || !names(last, ...REFUSED.rates)) return giveUp(`the refusal did not say which argument to change: ${JSON.stringify(last)}`);
			return call(tool, { ...asked, clientCountries: 'GB' });
		}
		return answer(`found ${jobRows(last).length} jobs from clients in GB at 40 to 80 USD an hour.`);
	},
};

/** The next turn of the conversation in `messages`, or an answer saying why there is none. */
export function nextTurn(messages) {
	const prompt = messages.filter((m) => m.role === 'user').map(messageText).join('\n');
	const scenario = tagOf(prompt)?.scenario;
	if (!scenario) return giveUp('no script for this prompt.');
	const answers = messages.filter((m) => m.role === 'tool').map(messageText);
	return { scenario: scenario.tag, ...TURNS[scenario.tag](answers) };
}
