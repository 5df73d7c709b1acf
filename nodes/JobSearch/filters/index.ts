export { FILTERS, FILTER_BY_KEY, MAX_ROWS_PER_CALL, DEFAULT_ROWS_PER_CALL, INPUT_BOUNDS } from './schema';
export { CATEGORY_GROUPS, categoryValues } from './categories';
export { FILTER_GROUPS } from './types';
export type { FilterSpec, FilterGroup, FilterIssue, SearchJobsBody, CountryLocation, EnumOption } from './types';
export { GROUP_COLLECTIONS, toParameterName } from './naming';
export { toNodeProperties } from './toNodeProperties';
export { toRequestBody, toWireValue, type FilterCollections, type RequestBodyOptions } from './toRequestBody';
export { validate, preview } from './validate';
export { boundsOf, type ValueBounds } from './bounds';
export { toJsonSchema, filterToJsonSchema, type JsonSchema, type SchemaOptions } from './toJsonSchema';
export { TOOL_NAMES, toolDefinitions, type ToolName, type ToolDefinition } from './tools';
export { JOB_UID_PATTERN, MONEY_PATTERN, COUNTRY_CODE_PATTERN, DATE_TIME_PATTERN } from './wireFormats';
export {
	ADDITIONAL_FILTERS,
	additionalFiltersOption,
	legacyAdditionalFiltersProperty,
	readAdditionalFilters,
	searchFiltersFromParameters,
	type SearchFilters,
} from './fromParameters';
