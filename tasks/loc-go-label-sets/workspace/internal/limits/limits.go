// Package limits keeps a tenant's series count under its limit.
package limits

import "fmt"

// ErrTooManySeries refuses a sample that would make a new series past the limit.
type ErrTooManySeries struct {
	Tenant string
	Limit  int
}

func (e *ErrTooManySeries) Error() string {
	return fmt.Sprintf("tenant %s: more than %d series", e.Tenant, e.Limit)
}

// Check allows a new series for a tenant that has `have` series, limit 0 meaning none.
func Check(tenant string, have, limit int) error {
	if limit > 0 && have >= limit {
		return &ErrTooManySeries{Tenant: tenant, Limit: limit}
	}
	return nil
}
