/**
 * Ages for `--since 30d` and `--keep 90d`: a number of days or weeks, or a UTC day (YYYY-MM-DD).
 * Pure: the edge passes the current time in.
 */
import { type IsoDay, isoDayOf } from '../calendar.js';
import { excerpt } from '../excerpt.js';

export type AgeParse =
  | { readonly ok: true; readonly cutoffMs: number; readonly since: IsoDay }
  | { readonly ok: false; readonly message: string };

const DAY_MS = 86_400_000;
const AGE_FORMS = 'write a number of days or weeks (30d, 12w) or a day (2026-11-01)';
/** The longest age accepted: 100 years (beyond it a date is out of range, and no store is that old). */
export const MAX_AGE_DAYS = 36_500;

/** The moment `text` before `nowMs` (or the start of the UTC day it names). */
export function parseAge(text: string, nowMs: number): AgeParse {
  const trimmed = text.trim();
  const relative = /^(\d+)(d|w)$/.exec(trimmed);
  if (relative) {
    const days = Number(relative[1]) * (relative[2] === 'w' ? 7 : 1);
    if (days < 1) return { ok: false, message: `"${text}" must be at least 1d; ${AGE_FORMS}` };
    if (days > MAX_AGE_DAYS)
      return { ok: false, message: `${excerpt(trimmed)} is more than ${MAX_AGE_DAYS}d (100 years); ${AGE_FORMS}` };
    const cutoffMs = nowMs - days * DAY_MS;
    return { ok: true, cutoffMs, since: isoDayOf(cutoffMs) };
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) {
    const cutoffMs = Date.parse(`${trimmed}T00:00:00Z`);
    if (Number.isFinite(cutoffMs) && isoDayOf(cutoffMs) === trimmed) {
      if (cutoffMs > nowMs)
        return {
          ok: false,
          message: `"${trimmed}" is in the future (today is ${isoDayOf(nowMs)}, UTC); give a past day or an age (30d)`,
        };
      if (cutoffMs < nowMs - MAX_AGE_DAYS * DAY_MS)
        return { ok: false, message: `"${trimmed}" is more than ${MAX_AGE_DAYS}d (100 years) ago; ${AGE_FORMS}` };
      return { ok: true, cutoffMs, since: trimmed };
    }
  }
  return { ok: false, message: `${excerpt(text)} is not an age; ${AGE_FORMS}` };
}
