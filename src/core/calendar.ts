/**
 * flakeguard's one calendar: dates are UTC days written YYYY-MM-DD. An allowance or quarantine
 * "expires: 2027-03-01" stops applying at 2027-03-01T00:00Z on every machine, so the reporter on a
 * laptop, the gate in CI and triage agree near midnight. Core never reads the clock: the edges pass
 * `today` (see io/clock.ts).
 */
export type IsoDay = string;

export function isoDayOf(epochMs: number): IsoDay {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** True when `expires` (YYYY-MM-DD) is before `today`: the entry applied through its expiry day. */
export function hasExpired(expires: IsoDay, today: IsoDay): boolean {
  return expires < today;
}

/** True for a real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function isIsoDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const at = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(at) && isoDayOf(at) === text;
}

/**
 * An expiry day a user gives on the command line (`--expires`): a real day, today or later. A day
 * already past would write an entry that never applies.
 */
export function checkExpiryDay(
  text: string,
  today: IsoDay,
): { readonly ok: true } | { readonly ok: false; readonly message: string } {
  if (!isIsoDay(text)) return { ok: false, message: 'is not a date; write YYYY-MM-DD (a real day, e.g. 2027-01-15)' };
  if (hasExpired(text, today))
    return {
      ok: false,
      message: `is in the past (today is ${today}, UTC); give today or a later day, or leave --expires out`,
    };
  return { ok: true };
}
