import { describe, expect, it } from 'vitest';
import { joinNegativeValues } from '../../src/commands/command-args.js';

describe('joinNegativeValues', () => {
  it('joins a negative number or duration to the option before it, so the command can name it', () => {
    expect(joinNegativeValues(['--runs', '-1', '--load', '-2', '--budget', '-1s', '--x', '-.5'])).toEqual(['--runs=-1', '--load=-2', '--budget=-1s', '--x=-.5']);
  });

  it('leaves options, short flags, joined values and other arguments as they are', () => {
    const args = ['--json', '--base', 'main', '-h', '--runs=-1', 'gate', '--markdown', '-', '--root', '--json'];
    expect(joinNegativeValues(args)).toEqual(args);
  });
});
