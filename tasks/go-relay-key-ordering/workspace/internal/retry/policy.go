// Package retry decides whether and when a failed delivery is tried again.
package retry

import (
	"errors"
	"time"
)

// Policy bounds the attempts of one delivery.
type Policy struct {
	// MaxAttempts counts the first attempt: 1 means never retry. 0 means DefaultAttempts.
	MaxAttempts int
	// Backoff gives the wait before attempt n+1 after attempt n failed. Nil means no wait.
	Backoff Backoff
}

// DefaultAttempts is used when MaxAttempts is 0.
const DefaultAttempts = 5

// Next reports whether attempt (1-based) that failed with err is tried again, and after
// how long.
func (p Policy) Next(attempt int, err error) (time.Duration, bool) {
	if err == nil || IsPermanent(err) {
		return 0, false
	}
	max := p.MaxAttempts
	if max <= 0 {
		max = DefaultAttempts
	}
	if attempt >= max {
		return 0, false
	}
	if p.Backoff == nil {
		return 0, true
	}
	return p.Backoff.Delay(attempt), true
}

type permanent struct{ err error }

func (p permanent) Error() string { return "permanent: " + p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

// Permanent marks err as not worth retrying (a 4xx answer, a malformed event).
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanent{err}
}

// IsPermanent reports whether err, or an error it wraps, was marked Permanent.
func IsPermanent(err error) bool {
	var p permanent
	return errors.As(err, &p)
}
