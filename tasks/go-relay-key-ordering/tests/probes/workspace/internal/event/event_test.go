package event

import (
	"errors"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	ok := Event{Type: "order.paid", Key: "order-1", Payload: []byte(`{}`), Headers: map[string]string{"X-Tenant": "a"}}
	if err := Validate(ok); err != nil {
		t.Fatalf("valid event refused: %v", err)
	}
	bad := []Event{
		{},
		{Type: "Order.Paid"},
		{Type: "order.paid", Key: " k"},
		{Type: "order.paid", Key: strings.Repeat("k", MaxKeyLen+1)},
		{Type: "order.paid", Headers: map[string]string{"Tenant": "a"}},
		{Type: "order.paid", Payload: make([]byte, MaxPayload+1)},
	}
	for i, e := range bad {
		if err := Validate(e); !errors.Is(err, ErrInvalid) {
			t.Errorf("case %d: got %v, want ErrInvalid", i, err)
		}
	}
}

func TestCloneSharesNothing(t *testing.T) {
	e := Event{Type: "a", Payload: []byte("x"), Headers: map[string]string{"X-A": "1"}}
	c := e.Clone()
	c.Payload[0] = 'y'
	c.Headers["X-A"] = "2"
	if string(e.Payload) != "x" || e.Headers["X-A"] != "1" {
		t.Fatal("clone shares state with the original")
	}
}

func TestIDs(t *testing.T) {
	g := NewIDs("")
	if a, b := g.Next(), g.Next(); a != "evt-000001" || b != "evt-000002" {
		t.Fatalf("got %s, %s", a, b)
	}
}
