/** Library API: the pure core and the config loader. */

export * from './core/config.js';
export * from './core/duration.js';
export * from './core/errors.js';
export * from './core/platform-value.js';
export * from './core/record/run-record.js';
export type { FindingClass, PatternRule, TriageConfig } from './core/triage/triage-config.js';
export * from './core/yaml-values.js';
export { findConfigFile, type LoadedConfig, loadConfig } from './io/config/config-file.js';
