package ingest

import (
	"fmt"
	"io"
	"sort"
)

// Stats counts what happened to the lines ingested.
type Stats struct {
	Accepted      int
	BadLine       int
	UnknownTenant int
	KindMismatch  int
	OverLimit     map[string]int
}

// Write prints the counts, one per line.
func (s *Stats) Write(w io.Writer) {
	fmt.Fprintf(w, "accepted %d\n", s.Accepted)
	fmt.Fprintf(w, "bad line %d\n", s.BadLine)
	fmt.Fprintf(w, "unknown tenant %d\n", s.UnknownTenant)
	fmt.Fprintf(w, "kind mismatch %d\n", s.KindMismatch)
	ids := make([]string, 0, len(s.OverLimit))
	for id := range s.OverLimit {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(w, "over limit %s %d\n", id, s.OverLimit[id])
	}
}
