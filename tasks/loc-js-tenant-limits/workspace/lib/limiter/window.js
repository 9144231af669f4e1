'use strict';

class FixedWindow {
  constructor({ limit, size }) {
    this.limit = limit;
    this.size = size;
    this.start = null;
    this.count = 0;
  }

  roll(now) {
    const start = now - (now % this.size);
    if (start !== this.start) {
      this.start = start;
      this.count = 0;
    }
  }

  remaining(now) {
    this.roll(now);
    return Math.max(0, this.limit - this.count);
  }

  tryTake(now, cost = 1) {
    this.roll(now);
    if (this.count + cost > this.limit) return false;
    this.count += cost;
    return true;
  }

  resetAt(now) {
    this.roll(now);
    return this.start + this.size;
  }
}

module.exports = { FixedWindow };
