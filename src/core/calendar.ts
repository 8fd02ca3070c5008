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
