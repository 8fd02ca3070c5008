import { createHash } from 'node:crypto';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { machineHashInput } from '../../src/core/record/machine.js';
import { readMachineIdentity } from '../../src/io/machine.js';

describe('this machine', () => {
  it('is the same id on every read: 12 hex digits of the SHA-256 of host name, CPU model and core count', () => {
    const m = readMachineIdentity();
    expect(readMachineIdentity()).toEqual(m);
    expect(m.id).toMatch(/^[0-9a-f]{12}$/);
    const digest = createHash('sha256')
      .update(machineHashInput(os.hostname(), m.cpuModel, m.cores))
      .digest('hex');
    expect(m.id).toBe(digest.slice(0, 12));
    expect(m.cores).toBeGreaterThan(0);
  });

  it('keeps no host name: its id, CPU model and core count only', () => {
    expect(Object.keys(readMachineIdentity()).sort()).toEqual(['cores', 'cpuModel', 'id']);
  });
});
