export { simplifyJob, simplifyJobDetails } from './simplifyJob';
export { errorItem, usageFields, withCallUsage, withUsage } from './items';
export { includeUsageOption, simplifyProperty } from './properties';
export {
	DEFAULT_TOOL_MAX_JOBS,
	budgetOf,
	TOOL_DESCRIPTION_CHARS,
	compactJob,
	isToolCall,
	toolDescriptionProperty,
} from './toolOutput';
