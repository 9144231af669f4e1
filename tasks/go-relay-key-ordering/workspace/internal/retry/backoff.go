package retry

import "time"

// Backoff maps a failed attempt number (1-based) to the wait before the next one.
type Backoff interface {
	Delay(attempt int) time.Duration
}

// Constant waits the same time after every failure.
type Constant time.Duration

func (c Constant) Delay(int) time.Duration { return time.Duration(c) }

// Exponential doubles (or multiplies by Factor) the wait after each failure, up to Max.
type Exponential struct {
	Base   time.Duration
	Max    time.Duration
	Factor float64
}

func (e Exponential) Delay(attempt int) time.Duration {
	f := e.Factor
	if f <= 1 {
		f = 2
	}
	d := float64(e.Base)
	for i := 1; i < attempt; i++ {
		d *= f
		if e.Max > 0 && d >= float64(e.Max) {
			return e.Max
		}
	}
	if e.Max > 0 && time.Duration(d) > e.Max {
		return e.Max
	}
	return time.Duration(d)
}
