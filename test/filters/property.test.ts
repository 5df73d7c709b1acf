import fc from 'fast-check';

import {
	COUNTRY_CODES,
	FILTERS,
	FILTER_RANGES,
	GROUP_COLLECTIONS,
	toParameterName,
	toRequestBody,
	validate,
	type FilterSpec,
} from '../../nodes/JobSearch/filters';
import { inputProblem } from '../../server/validation';
import { propertyParameters } from '../support/property';

// The reference server validates search_jobs input with ajv over toJsonSchema(); these
// properties tie the node's derivations to that very validator.
const serverProblem = (body: Record<string, unknown>) => inputProblem('search_jobs', body);

const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 .+#-]{0,14}$/).filter((s) => s.trim().length > 0);
/** An ISO 3166-1 code as typed: in upper or lower case. */
const countryCode = fc.tuple(fc.constantFrom(...COUNTRY_CODES), fc.boolean()).map(([code, lower]) => (lower ? code.toLowerCase() : code));

/** What a person (or an expression) can put into the generated n8n field of a filter. */
function nodeValue(spec: FilterSpec): fc.Arbitrary<unknown> {
	switch (spec.type) {
		case 'integer':
			return fc.oneof(
				fc.integer({ min: spec.minimum ?? -1e6, max: spec.maximum ?? 1e6 }),
				fc.integer({ min: spec.minimum ?? 0, max: spec.maximum ?? 1e6 }).map(String),
			);
		case 'number':
			return fc.double({ min: spec.minimum ?? -1e6, max: spec.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
		case 'money':
			return fc.oneof(
				fc.double({ min: 0, max: 1e7, noNaN: true, noDefaultInfinity: true }),
				fc.integer({ min: 0, max: 1e6 }).map((n) => `${n}`),
			);
		case 'boolean':
			return fc.oneof(fc.boolean(), fc.constantFrom('true', 'false'));
		case 'dateTime':
			return fc
				.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
				.chain((d) => fc.constantFrom(d.toISOString(), d.toISOString().slice(0, 19), d));
		case 'choice':
			return fc.constantFrom(...spec.options.map((o) => o.value));
		case 'choiceList':
			return fc.subarray(spec.options.map((o) => o.value));
		case 'textList':
			return fc.oneof(fc.array(word, { maxLength: 4 }), fc.array(word, { maxLength: 4 }).map((a) => a.join(', ')));
		case 'locationList':
			return fc.array(countryCode, { maxLength: 4 }).map((a) => a.join(', '));
	}
}

/** Node parameter collections with a random subset of filters set to random valid values (a minimum never above its maximum). */
const collections = fc
	.tuple(...FILTERS.map((spec) => fc.option(nodeValue(spec), { nil: undefined, freq: 3 })))
	.map((values) => {
		for (const { min, max } of FILTER_RANGES) {
			const [low, high] = [FILTERS.indexOf(min), FILTERS.indexOf(max)];
			if (values[low] !== undefined && values[high] !== undefined && Number(values[low]) > Number(values[high])) {
				[values[low], values[high]] = [values[high], values[low]];
			}
		}
		const result: Record<string, Record<string, unknown>> = {};
		FILTERS.forEach((spec, i) => {
			if (values[i] === undefined) return;
			const name = GROUP_COLLECTIONS[spec.group].name;
			(result[name] ??= {})[toParameterName(spec.key)] = values[i];
		});
		return result;
	});

/** Anything at all that could reach the wire under one key, well-formed or not. */
const anyWireValue = fc.oneof(
	fc.string(),
	fc.integer(),
	fc.double(),
	fc.boolean(),
	fc.constant(null),
	fc.array(fc.oneof(fc.string(), fc.integer(), fc.record({ type: fc.constantFrom('COUNTRY', 'CITY'), value: fc.string() }))),
	fc.constantFrom('-1', '1e3', '25.', '2026-02-30T00:00:00Z', '2026-11-01T10:00:00', '24 hours', 'EXPERT', 'US'),
);

describe('the schema derivations agree with the server JSON Schema', () => {
	it('every body toRequestBody builds from valid field values passes the JSON Schema under ajv', () => {
		fc.assert(
			fc.property(collections, (c) => {
				const body = toRequestBody(c);
				const problem = serverProblem(body);
				if (problem) throw new Error(`${JSON.stringify(body)}\n${problem}`);
				expect(validate(body)).toEqual([]);
			}),
			propertyParameters(500, 20261101),
		);
	});

	it('the node and the server agree on every minimum and maximum: both refuse a minimum above its maximum, neither refuses one at or below it', () => {
		const amount = fc.integer({ min: 0, max: 1000 });
		fc.assert(
			fc.property(fc.constantFrom(...FILTER_RANGES), amount, amount, ({ min, max }, low, high) => {
				const wire = (spec: FilterSpec, n: number) => (spec.type === 'money' ? String(n) : n);
				const body = { [min.key]: wire(min, low), [max.key]: wire(max, high) };
				expect({ node: validate(body).length > 0, server: serverProblem(body) !== undefined }).toEqual({ node: low > high, server: low > high });
			}),
			propertyParameters(500, 20261103),
		);
	});

	it('every value validate rejects is also rejected by ajv', () => {
		let rejected = 0;
		fc.assert(
			fc.property(fc.constantFrom(...FILTERS), fc.oneof(anyWireValue, fc.constant(undefined)), (spec, raw) => {
				const value = raw === undefined ? undefined : raw;
				const body = value === undefined ? {} : { [spec.key]: value };
				if (validate(body).length > 0) {
					rejected++;
					expect(serverProblem(body)).toBeDefined();
				}
			}),
			propertyParameters(3000, 20261102),
		);
		// A property that never sees a rejection proves nothing.
		expect(rejected).toBeGreaterThan(1000);
	});
});
