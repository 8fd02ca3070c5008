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
