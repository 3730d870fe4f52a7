/** The time source, passed in so tests can move it. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export class TestClock implements Clock {
  constructor(private t = new Date('2026-11-20T02:00:00Z')) {}
  now() {
    return new Date(this.t);
  }
  set(d: Date | string) {
    this.t = new Date(d);
  }
  advance(ms: number) {
    this.t = new Date(this.t.getTime() + ms);
  }
}
