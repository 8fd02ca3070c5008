/** What triage is asked to read, for the io triage tests: nothing but the project root, unless overridden. */
import { DEFAULT_CONFIG } from '../../../src/core/config.js';
import type { TriageSources } from '../../../src/io/triage/triage-inputs.js';

export const makeTriageSources = (root: string, over: Partial<TriageSources> = {}): TriageSources => ({
  root,
  records: [],
  reports: [],
  junit: [],
  logs: [],
  exitCode: null,
  limits: {
    root,
    config: DEFAULT_CONFIG,
    configFile: null,
    platform: process.platform,
    today: '2026-01-01',
    testFlagMs: null,
    fileFlagMs: null,
  },
  rerunCount: 0,
  ...over,
});
