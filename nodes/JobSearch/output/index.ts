export { simplifyJob } from './simplifyJob';
export { errorItem, usageFields, withUsage } from './items';
export { includeUsageOption, simplifyProperty } from './properties';
