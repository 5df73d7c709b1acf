// How the scripted model (model-standin.mjs) and the checks (check-agent.mjs) read what n8n sent
// to the model: the same rules in both, so the model acts on exactly what the checks assert.

/** The text of a chat message: a string, or the text parts of a list of parts. */
export function messageText(message) {
	const content = message?.content;
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((part) => (typeof part === 'string' ? part : (part?.text ?? ''))).join('');
	return '';
}

/** The text as JSON when it is JSON (n8n hands a tool's items over as a JSON string), else undefined. */
export function parsed(text) {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** Job rows anywhere in a tool's answer: objects with a uid and a title, at any depth. */
export function jobRows(text) {
	const rows = [];
	const visit = (value) => {
		if (typeof value === 'string' && /^\s*[[{]/.test(value)) return visit(parsed(value));
		if (Array.isArray(value)) return value.forEach(visit);
		if (value === null || typeof value !== 'object') return;
		if (typeof value.uid === 'string' && typeof value.title === 'string') rows.push(value);
		else Object.values(value).forEach(visit);
	};
	visit(parsed(text));
	return rows;
}

/** Lower case letters and digits only: "Client Countries" and "clientCountries" read alike. */
const squeezed = (text) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The first of the names a refusal names (an argument as the model knows it, or the field's
 * label): as written, else in another case or spacing. Undefined when it names none.
 */
export function names(text, ...candidates) {
	const haystack = squeezed(text);
	return candidates.find((name) => text.includes(name)) ?? candidates.find((name) => haystack.includes(squeezed(name)));
}

/** Whether a tool's answer says nothing: n8n hands an empty answer over as "" (Agent 3.1) or [] (2.2). */
export function isEmptyAnswer(text) {
	const value = parsed(text);
	return text.trim() === '' || value === '' || value === null || (Array.isArray(value) && value.length === 0);
}
