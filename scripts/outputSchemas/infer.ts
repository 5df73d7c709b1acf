/**
 * A JSON Schema of what a list of values has in common, learned from the values themselves:
 * every key seen (in the order first seen, which is the order the shaping code writes them),
 * its type, `nullable` where some value was null, and `required` for keys every object had.
 */
export interface JsonSchema {
	type?: string | string[];
	nullable?: true;
	properties?: Record<string, JsonSchema>;
	required?: string[];
	items?: JsonSchema;
}

type JsonType = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null';

interface Shape {
	types: Set<JsonType>;
	objects: number;
	keys: Map<string, { shape: Shape; count: number }>;
	items?: Shape;
}

const newShape = (): Shape => ({ types: new Set(), objects: 0, keys: new Map() });

function typeOf(value: unknown): JsonType {
	if (value === null || value === undefined) return 'null';
	if (Array.isArray(value)) return 'array';
	const type = typeof value;
	if (type === 'string' || type === 'number' || type === 'boolean' || type === 'object') return type;
	throw new Error(`A node output holds a ${type}, which JSON cannot carry`);
}

function learn(shape: Shape, value: unknown): void {
	const type = typeOf(value);
	shape.types.add(type);
	if (type === 'array') {
		for (const element of value as unknown[]) learn((shape.items ??= newShape()), element);
	} else if (type === 'object') {
		shape.objects++;
		for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
			const entry = shape.keys.get(key) ?? { shape: newShape(), count: 0 };
			entry.count++;
			learn(entry.shape, child);
			shape.keys.set(key, entry);
		}
	}
}

// The editor shows the first type of a list: the value's own type goes before "null", which is
// said with `nullable` so that an object or list keeps its fields in the preview.
const TYPE_ORDER: JsonType[] = ['object', 'array', 'string', 'number', 'boolean'];

function toSchema(shape: Shape, path: string): JsonSchema {
	const types = TYPE_ORDER.filter((t) => shape.types.has(t));
	if (types.length === 0) {
		throw new Error(`"${path}" is null in every sample: widen the sample so its type can be learned`);
	}
	const schema: JsonSchema = { type: types.length === 1 ? types[0] : types };
	if (shape.types.has('null')) schema.nullable = true;
	if (shape.types.has('object')) {
		schema.properties = Object.fromEntries([...shape.keys].map(([key, { shape: child }]) => [key, toSchema(child, `${path}.${key}`)]));
		const required = [...shape.keys].filter(([, { count }]) => count === shape.objects).map(([key]) => key);
		if (required.length > 0) schema.required = required;
	}
	if (shape.types.has('array') && shape.items) schema.items = toSchema(shape.items, `${path}[]`);
	return schema;
}

/** The schema every one of `samples` fits, learned from them. */
export function schemaOf(samples: unknown[], name: string): JsonSchema {
	if (samples.length === 0) throw new Error(`No sample of ${name} to learn its schema from`);
	const shape = newShape();
	for (const sample of samples) learn(shape, sample);
	return toSchema(shape, name);
}
