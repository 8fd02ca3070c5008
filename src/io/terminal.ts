/**
 * What the terminal can show: colour only when stdout is a TTY, off with NO_COLOR, on with
 * FORCE_COLOR; live progress only on a TTY outside CI.
 */

import { styleText } from 'node:util';
import type { TextStyle } from '../core/text-style.js';

export interface Screen {
  readonly color: boolean;
  readonly live: boolean;
  readonly columns: number;
}

export function detectScreen(stream: NodeJS.WriteStream = process.stdout, env = process.env): Screen {
  const tty = stream.isTTY === true;
  const forced = env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0';
  const color = forced || (tty && env['NO_COLOR'] === undefined);
  const ci = env['CI'] !== undefined && env['CI'] !== '' && env['CI'] !== 'false';
  return {
    color: env['NO_COLOR'] !== undefined && !forced ? false : color,
    live: tty && !ci,
    columns: stream.columns ?? 100,
  };
}

export type Style = TextStyle;

export function paint(screen: Pick<Screen, 'color'>, style: Style, text: string): string {
  return screen.color ? styleText(style, text) : text;
}
