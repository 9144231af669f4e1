package event

import (
	"errors"
	"fmt"
	"strings"
)

// Limits on what an event may carry.
const (
	MaxPayload   = 256 << 10
	MaxKeyLen    = 128
	MaxTypeLen   = 64
	MaxHeaders   = 32
	headerPrefix = "x-"
)

// ErrInvalid is wrapped by every validation error.
var ErrInvalid = errors.New("invalid event")

// Validate checks the fields a client sets. ID, Seq and Accepted are the relay's.
func Validate(e Event) error {
	if e.Type == "" {
		return fmt.Errorf("%w: type is required", ErrInvalid)
	}
	if len(e.Type) > MaxTypeLen {
		return fmt.Errorf("%w: type longer than %d bytes", ErrInvalid, MaxTypeLen)
	}
	for _, r := range e.Type {
		if !(r == '.' || r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return fmt.Errorf("%w: type %q: only a-z, 0-9, '.', '_' and '-'", ErrInvalid, e.Type)
		}
	}
	if len(e.Key) > MaxKeyLen {
		return fmt.Errorf("%w: key longer than %d bytes", ErrInvalid, MaxKeyLen)
	}
	if strings.TrimSpace(e.Key) != e.Key {
		return fmt.Errorf("%w: key %q has leading or trailing space", ErrInvalid, e.Key)
	}
	if len(e.Payload) > MaxPayload {
		return fmt.Errorf("%w: payload larger than %d bytes", ErrInvalid, MaxPayload)
	}
	if len(e.Headers) > MaxHeaders {
		return fmt.Errorf("%w: more than %d headers", ErrInvalid, MaxHeaders)
	}
	for name := range e.Headers {
		if !strings.HasPrefix(strings.ToLower(name), headerPrefix) {
			return fmt.Errorf("%w: header %q must start with X-", ErrInvalid, name)
		}
	}
	return nil
}
