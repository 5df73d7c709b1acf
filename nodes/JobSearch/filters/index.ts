export { FILTERS, FILTER_BY_KEY, FILTER_RANGES, MAX_ROWS_PER_CALL, DEFAULT_ROWS_PER_CALL, INPUT_BOUNDS } from './schema';
export { CATEGORY_GROUPS, categoryValues } from './categories';
export { FILTER_GROUPS } from './types';
export type { FilterSpec, CountryLocation } from './types';
export { GROUP_COLLECTIONS, toParameterName } from './naming';
export { toNodeProperties } from './toNodeProperties';
export { toRequestBody } from './toRequestBody';
export { validate, rangeIssues, preview } from './validate';
export { boundsOf } from './bounds';
export { toJsonSchema, type JsonSchema } from './toJsonSchema';
export { TOOL_NAMES, toolDefinitions, type ToolName } from './tools';
export { COUNTRY_CODES, JOB_UID_PATTERN, wireDateToUtcMs } from './wireFormats';
export {
	ADDITIONAL_FILTERS,
	ADDITIONAL_FILTERS_TITLE,
	searchFiltersFromParameters,
} from './fromParameters';
