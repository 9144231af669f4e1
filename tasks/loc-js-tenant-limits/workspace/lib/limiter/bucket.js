'use strict';

class TokenBucket {
  constructor({ size, refillPerSec }) {
    this.size = size;
    this.refillPerSec = refillPerSec;
    this.tokens = size;
    this.last = null;
  }

  refill(now) {
    if (this.last !== null && now > this.last) {
      this.tokens = Math.min(this.size, this.tokens + ((now - this.last) / 1000) * this.refillPerSec);
    }
    if (this.last === null || now > this.last) this.last = now;
  }

  tryTake(now, cost = 1) {
    this.refill(now);
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }

  waitMs(now, cost = 1) {
    this.refill(now);
    if (this.tokens >= cost) return 0;
    return Math.ceil(((cost - this.tokens) / this.refillPerSec) * 1000);
  }
}

module.exports = { TokenBucket };
