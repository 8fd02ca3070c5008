import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../src/core/config.js';
import { loadConfig } from '../../../src/io/config/config-file.js';

describe('loadConfig', () => {
  let top: string;
  beforeEach(() => {
    top = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-config-'));
  });
  afterEach(() => rmSync(top, { recursive: true, force: true }));

  it('walks up from the Vitest root to the config and makes its folder the root', () => {
    mkdirSync(path.join(top, 'packages/app'), { recursive: true });
    writeFileSync(path.join(top, 'flakeguard.yaml'), 'budget:\n  test: 2s\n');
    const loaded = loadConfig(path.join(top, 'packages/app'));
    expect(loaded.root).toBe(top);
    expect(loaded.file).toBe(path.join(top, 'flakeguard.yaml'));
    expect(loaded.config.budget.test).toEqual({ kind: 'single', value: 2000 });
  });

  it('stops at the git root and uses the defaults when no config is found', () => {
    writeFileSync(path.join(top, 'flakeguard.yaml'), 'budget:\n  test: 2s\n');
    mkdirSync(path.join(top, 'repo/.git'), { recursive: true });
    const loaded = loadConfig(path.join(top, 'repo'));
    expect(loaded).toEqual({ config: DEFAULT_CONFIG, file: null, root: path.join(top, 'repo') });
  });

  it('names the file relative to the working directory with line and column', () => {
    writeFileSync(path.join(top, 'flakeguard.yaml'), 'budget:\n  test: 5 sec\n');
    const display = path.relative(process.cwd(), path.join(top, 'flakeguard.yaml')).split(path.sep).join('/');
    expect(() => loadConfig(top)).toThrow(`${display}:2:9: budget.test "5 sec" is not a duration`);
  });
});
