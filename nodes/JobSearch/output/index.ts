export { SIMPLIFIED_MAX_FIELDS, simplifyJob, simplifyJobDetails } from './simplifyJob';
export { budgetOf } from './budget';
export { errorItem, usageFields, withCallUsage, withUsage } from './items';
export { includeUsageOption, simplifyProperty } from './properties';
export {
	DEFAULT_TOOL_MAX_JOBS,
	TOOL_DESCRIPTION_CHARS,
	compactJob,
	isToolCall,
	parseFieldList,
	selectFields,
	toolDescriptionProperty,
	toolOutputProperties,
	toolShape,
	type ToolOutput,
	type ToolOutputChoice,
} from './toolOutput';
