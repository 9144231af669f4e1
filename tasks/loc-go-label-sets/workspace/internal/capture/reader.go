// Package capture reads capture files: one sample a line, `<tenant> <line>`, with
// blank lines and lines starting with # ignored.
package capture

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// A Record is one line of a capture.
type Record struct {
	Tenant string
	Line   string
	LineNo int
}

// Read returns every record of r.
func Read(r io.Reader) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		i := strings.IndexAny(text, " \t")
		if i <= 0 {
			return nil, fmt.Errorf("capture line %d: no tenant", n)
		}
		out = append(out, Record{Tenant: text[:i], Line: strings.TrimSpace(text[i+1:]), LineNo: n})
	}
	return out, sc.Err()
}
