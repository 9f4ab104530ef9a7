/**
 * What time it is, for everything the server decides by time: expiries, retry
 * schedules, rate-limit windows, timestamps it writes. One clock per instance,
 * held in Services, so a test can move it (test/harness.ts) and every expiry
 * moves with it, including the ones checked in SQL (the time is passed as a
 * parameter rather than read from the database's now()).
 *
 * Timers that schedule work (setTimeout, setInterval) stay real: the clock
 * answers "what time is it", not "wake me later". This file is the one place
 * allowed to read the system time (the lint rule in eslint.config.js).
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** The same instant as a Date (a new object each call: callers may keep it). */
  date(): Date;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  date: () => new Date(),
};
