import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  describeMachine,
  describeMachineClass,
  isMachineIdentity,
  machineHashInput,
  normalizeCpuModel,
  sameMachineClass,
} from '../../../src/core/record/machine.js';
import { parseRunRecord } from '../../../src/core/record/run-record-parse.js';
import { makeRecord } from './record-factories.js';

describe('machine identity', () => {
  it('hashes the host name regardless of case and the CPU model regardless of whitespace; another core count is another machine', () => {
    expect(machineHashInput(' Build-Agent-7 ', 'Intel(R) Xeon(R)  CPU @ 2.20GHz ', 4)).toBe(
      machineHashInput('build-agent-7', 'Intel(R) Xeon(R) CPU @ 2.20GHz', 4),
    );
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9.-]{0,30}$/),
        fc.string(),
        fc.integer({ min: 1, max: 1024 }),
        fc.integer({ min: 1, max: 1024 }),
        (host, cpu, cores, other) => {
          const input = machineHashInput(host, cpu, cores);
          expect(input).toBe(machineHashInput(host.toUpperCase(), ` ${cpu} `, cores));
          if (other !== cores) expect(input).not.toBe(machineHashInput(host, cpu, other));
        },
      ),
    );
  });

  it('names a CPU the OS does not name', () => {
    expect(normalizeCpuModel('  ')).toBe('unknown CPU');
  });

  it('reads a machine from a record or a store, and nothing else', () => {
    const m = { id: '3f9a1c2b7d10', cpuModel: 'Example CPU', cores: 8 };
    expect(isMachineIdentity(m)).toBe(true);
    expect(describeMachine(m)).toBe('3f9a1c2b7d10 (Example CPU, 8 cores)');
    for (const bad of [
      null,
      'x',
      { ...m, id: 'build-agent-7' },
      { ...m, id: '3F9A1C2B7D10' },
      { ...m, cores: 1.5 },
      { id: m.id },
    ])
      expect(isMachineIdentity(bad)).toBe(false);
  });

  it('puts machines of one CPU model and core count in one class', () => {
    const m = { id: '3f9a1c2b7d10', cpuModel: 'Example CPU', cores: 8 };
    expect(sameMachineClass(m, { ...m, id: '000000000000' })).toBe(true);
    expect(sameMachineClass(m, { ...m, cores: 4 })).toBe(false);
    expect(sameMachineClass(m, { ...m, cpuModel: 'Other CPU' })).toBe(false);
  });
});

describe("the run record's machine", () => {
  it('is written with the record and read back; a record without one (before issue 37) still reads', () => {
    const record = makeRecord();
    expect(record.machine).toEqual({ id: '3f9a1c2b7d10', cpuModel: 'Example CPU @ 2.20GHz', cores: 2 });
    expect(parseRunRecord(JSON.stringify(record), 'r.json').machine).toEqual(record.machine);
    const { machine: _machine, ...older } = record;
    expect(parseRunRecord(JSON.stringify(older), 'r.json').machine).toBeUndefined();
  });

  it('names a machine that is not one, and the fix', () => {
    const text = JSON.stringify({ ...makeRecord(), machine: { id: 'build-agent-7', cpuModel: 'x', cores: 2 } });
    expect(() => parseRunRecord(text, 'r.json')).toThrow(
      'r.json: run record field machine must be null or { id: 12 hex digits, cpuModel, cores }, found {"id":"build-agent-7","cpuModel":"x","cores":2}; delete it or re-run the tests to write a new one',
    );
  });
});

describe('a CPU model from outside is cut to a stated length (issue 48, finding 11)', () => {
  it('a 10 kB CPU model: the first 100 characters and its length', () => {
    expect(describeMachineClass({ cpuModel: 'Z'.repeat(10_000), cores: 4 })).toBe(
      `${'Z'.repeat(100)}… (10000 characters), 4 cores`,
    );
    expect(describeMachineClass({ cpuModel: 'AMD EPYC 7763 64-Core Processor', cores: 1 })).toBe(
      'AMD EPYC 7763 64-Core Processor, 1 core',
    );
  });
});
