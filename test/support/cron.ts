import fc from 'fast-check';

const value = (min: number, max: number) => fc.integer({ min, max }).map(String);

/** One cron field from `min` to `max`: every value, one, a range, a step, or a list (no value twice: n8n 2.41 refuses that). */
const field = (min: number, max: number) =>
	fc.oneof(
		fc.constant('*'),
		value(min, max),
		fc.tuple(fc.integer({ min, max }), fc.integer({ min, max })).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
		fc.tuple(fc.constantFrom('*', String(min)), fc.integer({ min: 2, max: Math.max(2, max - min) })).map(([from, step]) => `${from}/${step}`),
		fc.uniqueArray(value(min, max), { minLength: 2, maxLength: 3 }).map((values) => values.join(',')),
	);

/** A random five-field cron expression, its days of month up to `lastDay`. */
export const cronExpression = (lastDay: number): fc.Arbitrary<string> =>
	fc.tuple(field(0, 59), field(0, 23), field(1, lastDay), field(1, 12), field(0, 6)).map((fields) => fields.join(' '));
