// A first lease from Go, on the raw wire with nats.go: acquire a key, renew it
// once (the holder rules: act as owner only after a renew of your own
// succeeded), print the fence, release it.
//
//	NATS_URL=nats://127.0.0.1:4222 go run . [KEY]
//
// The full contract is docs/wire-protocol.md.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats.go"
)

// reply holds the fields of the lease view, the release reply and the error reply used here.
type reply struct {
	Granted  bool   `json:"granted"`
	Released bool   `json:"released"`
	Holder   string `json:"holder"`
	Revision uint64 `json:"revision"`
	Error    string `json:"error"`
	Kind     string `json:"kind"`
}

func call(nc *nats.Conn, subject string, request map[string]any) (reply, error) {
	body, err := json.Marshal(request)
	if err != nil {
		return reply{}, err
	}
	msg, err := nc.Request(subject, body, 5*time.Second)
	if err != nil {
		return reply{}, fmt.Errorf("%s: %w", subject, err)
	}
	var answer reply
	if err := json.Unmarshal(msg.Data, &answer); err != nil {
		return reply{}, fmt.Errorf("%s answered %q: %w", subject, msg.Data, err)
	}
	if answer.Kind != "" {
		return reply{}, fmt.Errorf("%s: %s: %s", subject, answer.Kind, answer.Error)
	}
	return answer, nil
}

func run() error {
	url := os.Getenv("NATS_URL")
	if url == "" {
		url = nats.DefaultURL
	}
	key := "first-lease"
	if len(os.Args) > 1 {
		key = os.Args[1]
	}
	holder := fmt.Sprintf("go-first-lease-%d", os.Getpid())

	nc, err := nats.Connect(url, nats.Name(holder))
	if err != nil {
		return err
	}
	defer nc.Close()

	acquired, err := call(nc, "api.leases.acquire", map[string]any{"key": key, "holder": holder, "ttl_ms": 15000})
	if err != nil {
		return err
	}
	if !acquired.Granted {
		return fmt.Errorf("%s is held by %s (fence %d)", key, acquired.Holder, acquired.Revision)
	}
	fmt.Printf("granted %s to %s at fence %d\n", key, holder, acquired.Revision)

	// Each renew answers a new revision: the fence to send with downstream writes,
	// and the revision to send with the next renew and the release.
	renewed, err := call(nc, "api.leases.renew", map[string]any{"key": key, "holder": holder, "revision": acquired.Revision})
	if err != nil {
		return err
	}
	fmt.Printf("renewed %s: fence %d\n", key, renewed.Revision)

	released, err := call(nc, "api.leases.release", map[string]any{"key": key, "holder": holder, "revision": renewed.Revision})
	if err != nil {
		return err
	}
	if !released.Released {
		return fmt.Errorf("release of %s answered without released: true", key)
	}
	fmt.Printf("released %s\n", key)
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "first-lease:", err)
		os.Exit(1)
	}
}
