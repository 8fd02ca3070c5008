/** Library API: the pure core and the config loader. */
export * from './core/duration.js';
export * from './core/errors.js';
export * from './core/platform-value.js';
export * from './core/record/run-record.js';
export * from './core/config.js';
export { loadConfig, findConfigFile, type LoadedConfig } from './io/config/config-file.js';
