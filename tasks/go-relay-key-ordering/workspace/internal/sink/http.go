package sink

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"example.com/relay/internal/event"
	"example.com/relay/internal/retry"
)

// HTTP posts each event's payload to URL. 2xx is success; 408, 429 and 5xx are
// retryable; any other status is permanent.
type HTTP struct {
	URL     string
	Client  *http.Client
	Timeout time.Duration
}

func (h *HTTP) Name() string { return "http " + h.URL }

func (h *HTTP) Deliver(ctx context.Context, e event.Event) error {
	if h.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, h.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(e.Payload))
	if err != nil {
		return retry.Permanent(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Relay-Id", e.ID)
	req.Header.Set("X-Relay-Type", e.Type)
	req.Header.Set("X-Relay-Seq", strconv.FormatUint(e.Seq, 10))
	if e.Key != "" {
		req.Header.Set("X-Relay-Key", e.Key)
	}
	for k, v := range e.Headers {
		req.Header.Set(k, v)
	}
	client := h.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return nil
	case resp.StatusCode == http.StatusRequestTimeout, resp.StatusCode == http.StatusTooManyRequests, resp.StatusCode >= 500:
		return fmt.Errorf("%s: status %d", h.URL, resp.StatusCode)
	default:
		return retry.Permanent(fmt.Errorf("%s: status %d", h.URL, resp.StatusCode))
	}
}
