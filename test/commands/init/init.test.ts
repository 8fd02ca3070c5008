import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRecord } from '../../core/record/record-factories.js';
import { createFixture, type Fixture } from '../../helpers/fixture.js';

let fixture: Fixture | undefined;
afterEach(() => fixture?.remove());

describe('flakeguard init', () => {
  it('creates a commented config and the allowances folder, and prints the reporters line', async () => {
    fixture = await createFixture();
    const result = await fixture.flakeguard(['init']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`reporters: ['default', 'flakeguard/reporter'],`);
    expect(readFileSync(path.join(fixture.root, 'flakeguard.yaml'), 'utf8')).toContain('# Limit for one test');
    expect(existsSync(path.join(fixture.root, 'allowances'))).toBe(true);
  });

  it('never overwrites an existing config and suggests a budget from the newest run record', async () => {
    fixture = await createFixture({
      files: {
        'flakeguard.yaml': '# mine\nbudget:\n  test: 2s\n',
        '.flakeguard/runs/r1.json': JSON.stringify(
          makeRecord([
            { fullName: 'slow', durationMs: 3200 },
            { fullName: 'quick', durationMs: 40 },
          ]),
        ),
      },
    });
    const result = await fixture.flakeguard(['init']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('flakeguard.yaml already exists');
    expect(result.stdout).toContain('your slowest test took 3.20s');
    expect(readFileSync(path.join(fixture.root, 'flakeguard.yaml'), 'utf8')).toBe('# mine\nbudget:\n  test: 2s\n');
  });

  it('exits 2 with a usage message on an unknown option', async () => {
    fixture = await createFixture();
    const result = await fixture.flakeguard(['init', '--nope']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("Unknown option '--nope'");
  });
});
