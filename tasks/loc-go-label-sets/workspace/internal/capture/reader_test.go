package capture

import (
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	recs, err := Read(strings.NewReader("# a capture\n\nacme hits:1|c\n  beta\tup:1|g\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].Tenant != "acme" || recs[1].Line != "up:1|g" || recs[1].LineNo != 4 {
		t.Fatalf("%+v", recs)
	}
	if _, err := Read(strings.NewReader("lonely\n")); err == nil {
		t.Fatal("accepted")
	}
}
