import { describe, expect, it } from 'vitest';
import { CAUSE_CLASSES } from '../../../src/core/cause/cause.js';
import { CAUSE_RULES, firstCause } from '../../../src/core/cause/cause-rules.js';

describe('the one order of the cause rules', () => {
  it('asks the rules in the table order, whatever order a source lists them in, and stops at the first decision', () => {
    const asked: string[] = [];
    const rule = (id: string, decides: boolean) => () => {
      asked.push(id);
      return decides ? { class: 'timing' as const, id } : null;
    };
    const decided = firstCause({
      'timeout-errors': rule('timeout-errors', true),
      'one-shard': rule('one-shard', true),
      'network-errors': rule('network-errors', false),
    });
    expect(decided?.id).toBe('one-shard');
    expect(asked).toEqual(['network-errors', 'one-shard']);
    expect(firstCause({})).toBeNull();
  });

  it('has each rule once, of a class that exists, read by at least one source; unknown is what none deciding gives', () => {
    const ids = CAUSE_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of CAUSE_RULES) {
      expect(CAUSE_CLASSES).toContain(r.class);
      expect(r.sources.length).toBeGreaterThan(0);
    }
    expect(CAUSE_RULES.map((r) => r.class)).not.toContain('unknown');
  });
});
