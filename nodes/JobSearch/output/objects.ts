import type { IDataObject } from 'n8n-workflow';

/** The value as an object to read fields from; {} for anything else (a missing or malformed part of a job). */
export function obj(value: unknown): IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as IDataObject) : {};
}
