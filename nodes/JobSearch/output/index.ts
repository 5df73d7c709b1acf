export { SIMPLIFIED_MAX_FIELDS, simplifyJob, simplifyJobDetails } from './simplifyJob';
export { budgetOf } from './budget';
export { errorItem, usageFields, withCallUsage, withUsage } from './items';
export {
	DEFAULT_TOOL_MAX_JOBS,
	TOOL_DESCRIPTION_CHARS,
	compactJob,
	parseFieldList,
	toolShape,
	type ToolOutput,
	type ToolOutputChoice,
} from './toolOutput';
