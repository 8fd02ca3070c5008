/**
 * Durations as people write them in config and allowance files: `250ms`, `5s`, `1.5s`, `2m`.
 * Parsing is strict: "5 sec" or "5" is an error that names the accepted forms.
 */
import { excerpt } from './excerpt.js';

export type DurationParse =
  | { readonly ok: true; readonly ms: number }
  | { readonly ok: false; readonly message: string };

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const DURATION_RE = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;

export const DURATION_FORMS = 'write 250ms, 5s, 1.5s or 2m';
/** The longest duration accepted anywhere (a budget, a time budget): one day. */
export const MAX_DURATION_MS = 86_400_000;
/** The shortest duration accepted, the thousandth of a millisecond that durations are rounded to. */
const MIN_DURATION_TEXT = '0.001ms';

export function parseDuration(text: unknown): DurationParse {
  if (typeof text !== 'string') {
    return { ok: false, message: `${excerpt(text)} is not a duration; ${DURATION_FORMS}` };
  }
  const match = DURATION_RE.exec(text.trim());
  if (!match) {
    return { ok: false, message: `${excerpt(text)} is not a duration; ${DURATION_FORMS}` };
  }
  const value = Number(match[1]);
  const unit = match[2] as keyof typeof UNIT_MS;
  const ms = value * UNIT_MS[unit];
  if (!Number.isFinite(ms) || ms <= 0) {
    return { ok: false, message: `${excerpt(text)} must be greater than zero; ${DURATION_FORMS}` };
  }
  if (ms > MAX_DURATION_MS)
    return { ok: false, message: `${excerpt(text)} is more than 24h; ${DURATION_FORMS} (at most 24h)` };
  // Checked after rounding to the thousandth of a millisecond that every duration is kept at: a
  // value that rounds to 0 (0.0004ms) would be a zero budget, which every test exceeds.
  const rounded = Math.round(ms * 1000) / 1000;
  if (rounded <= 0)
    return {
      ok: false,
      message: `${excerpt(text)} rounds to 0ms (durations are kept to ${MIN_DURATION_TEXT}); ${DURATION_FORMS} (at least ${MIN_DURATION_TEXT})`,
    };
  return { ok: true, ms: rounded };
}

/** Seconds with two decimals (`5.31s`) from one second up, milliseconds below. */
export function formatDuration(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)}s`;
  return `${Math.round(ms)}ms`;
}

/**
 * The shortest exact text that parses back to `ms` (used when flakeguard writes a duration to a
 * file a person reads): 5000 -> "5s", 1500 -> "1.5s", 120000 -> "2m", 250 -> "250ms".
 */
export function serializeDuration(ms: number): string {
  if (ms % 60_000 === 0 && ms >= 60_000) return `${ms / 60_000}m`;
  if (ms % 1000 === 0 && ms >= 1000) return `${ms / 1000}s`;
  if (ms >= 1000 && Number.isInteger(ms / 100)) return `${ms / 1000}s`;
  return `${Math.round(ms * 1000) / 1000}ms`;
}
