// The repo's Vitest config with bench/file-cpu/setup.ts added to every project (they extend the root):
// run by bench/suite-file-cpu.mjs.
import { mergeConfig } from 'vitest/config';
import base from '../../vitest.config.js';

export default mergeConfig(base, { test: { setupFiles: ['./bench/file-cpu/setup.ts'] } });
