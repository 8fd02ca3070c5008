/** The clock, read only at the edges and passed into core (see core/calendar.ts for the calendar). */
import { type IsoDay, isoDayOf } from '../core/calendar.js';

export interface Clock {
  now(): number;
  today(): IsoDay;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  today: () => isoDayOf(Date.now()),
};
