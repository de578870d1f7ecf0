/**
 * The machine's calendar moved on by 400 days, its clock still running: a preload for the "a year on"
 * pass of scripts/test.ts. The tests fix the club and Teebox on their own clocks (TEST_NOW, FakeClock);
 * a test that mixes one of those with the machine's date passes on the day it was written and breaks
 * weeks later. 400 days cross a year's turn and both of the machine zone's clock changes, and land on
 * another weekday (400 = 57 weeks + 1 day).
 *
 * Only this process moves: a thread or a child process it starts reads the real date, so the pass
 * leaves out the tests that read it there (readingTheRealDate in scripts/test.ts).
 */
const SHIFT_MS = 400 * 86_400_000;
const RealDate = Date;

class ShiftedDate extends RealDate {
  constructor(...args: ConstructorParameters<DateConstructor> | []) {
    if (args.length === 0) super(RealDate.now() + SHIFT_MS);
    else super(...(args as ConstructorParameters<DateConstructor>));
  }
  static override now(): number {
    return RealDate.now() + SHIFT_MS;
  }
}

globalThis.Date = ShiftedDate as DateConstructor;
// The precise wall clock (performance.timeOrigin + performance.now()) moves with it.
Object.defineProperty(performance, "timeOrigin", { value: performance.timeOrigin + SHIFT_MS, configurable: true });
