/** Tries and verdict inputs for the tests of core/gate/gate-verdict.ts and gate-proposal.ts. */
import type { GateVerdictInput } from '../../../src/core/gate/gate-verdict.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';

export const pass = (durationMs = 10): GateTry => ({ state: 'passed', durationMs });
export const fail = (durationMs = 10, error = 'boom'): GateTry => ({ state: 'failed', durationMs, error });
export const makeInput = (over: Partial<GateVerdictInput> = {}): GateVerdictInput => ({
  tries: [pass(), pass(), pass(), pass(), pass()],
  loaded: true,
  idle: null,
  alone: null,
  limit: { limitMs: 1000, source: 'budget', platformKey: 'linux' },
  warnAt: 0.8,
  ...over,
});
