// Package fieldsens: shape 4 of issue 18. Each field of a struct, map or
// slice element carries its own taint.
package fieldsens

import (
	"context"
	"net/http"
	"time"

	"github.com/oklog/ulid/v2"

	"provenance/fieldsens/store"
)

type Event struct {
	ID             string
	IdempotencyKey string
}

type Delivery struct {
	UID            string
	IdempotencyKey string
}

type Repo struct{}

func (r *Repo) CreateDeliveries(ctx context.Context, ds []*Delivery) error { return nil }

type Sender struct{}

func (s *Sender) Send(ctx context.Context, d *Delivery) error { return nil }

// Silent: the key is copied from the event; the ULID is its sibling.
func fanOut(ctx context.Context, repo *Repo, s *Sender, ev Event) error {
	d := &Delivery{UID: ulid.Make().String(), IdempotencyKey: ev.IdempotencyKey}
	if err := repo.CreateDeliveries(ctx, []*Delivery{d}); err != nil {
		return err
	}
	return s.Send(ctx, d)
}

// Silent: map elements keep their own taint.
func asMap(ev Event) map[string]string {
	m := map[string]string{"uid": ulid.Make().String()}
	m["idempotency_key"] = ev.IdempotencyKey
	return m
}

// Found: the ULID in the key field itself.
func fanOutFresh(ctx context.Context, s *Sender, ev Event) error {
	d := &Delivery{UID: ev.ID, IdempotencyKey: ulid.Make().String()}
	return s.Send(ctx, d) // want `built from ulid\.Make`
}

// A payload map whose "id" is stable and whose "started" is a clock
// reading: a key read back by its constant key takes only that element.
func notifyPayload(ctx context.Context, ev Event) error {
	payload := map[string]any{"id": ev.ID, "started": time.Now().String()}
	return sendKeyed(ctx, payload)
}

func sendKeyed(ctx context.Context, payload map[string]any) error {
	key, _ := payload["id"].(string)
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://hooks.example/n", nil)
	req.Header.Set("Idempotency-Key", key) // silent: "started" is a sibling
	_, err := http.DefaultClient.Do(req)
	return err
}

// Found: the clock reading is the element read.
func notifyStarted(ctx context.Context, ev Event) error {
	payload := map[string]any{"id": ev.ID, "started": time.Now().String()}
	key, _ := payload["started"].(string)
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://hooks.example/n", nil)
	req.Header.Set("Idempotency-Key", key) // want `built from time\.Now`
	_, err := http.DefaultClient.Do(req)
	return err
}

// Found: a key read by a key not known here may be any element.
func notifyAny(ctx context.Context, ev Event, field string) error {
	payload := map[string]any{"id": ev.ID, "started": time.Now().String()}
	key, _ := payload[field].(string)
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://hooks.example/n", nil)
	req.Header.Set("Idempotency-Key", key) // want `built from time\.Now`
	_, err := http.DefaultClient.Do(req)
	return err
}

// Found: an element written by a key not known here may be "id".
func notifyAnyWrite(ctx context.Context, ev Event, field string) error {
	payload := map[string]any{"id": ev.ID}
	payload[field] = time.Now().String()
	key, _ := payload["id"].(string)
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://hooks.example/n", nil)
	req.Header.Set("Idempotency-Key", key) // want `built from time\.Now`
	_, err := http.DefaultClient.Do(req)
	return err
}

// A value receiver's copy: each transition returns a new event with its
// fields copied and UpdatedAt from the clock; the key is still the one
// the event was created with.
type Stored struct {
	ID             string
	IdempotencyKey string
	Attempts       int
	UpdatedAt      time.Time
}

func (e Stored) MarkDelivering() Stored {
	return Stored{ID: e.ID, IdempotencyKey: e.IdempotencyKey, Attempts: e.Attempts, UpdatedAt: time.Now().UTC()}
}

func (e Stored) IncrementAttempts() Stored {
	return Stored{ID: e.ID, IdempotencyKey: e.IdempotencyKey, Attempts: e.Attempts + 1, UpdatedAt: e.UpdatedAt}
}

type Events struct{}

func (Events) Update(ctx context.Context, e Stored) error { return nil }

func sendStored(ctx context.Context, e Stored) error {
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://hooks.example/n", nil)
	req.Header.Set("Idempotency-Key", e.IdempotencyKey)
	_, err := http.DefaultClient.Do(req)
	return err
}

// Silent: the clock reading is UpdatedAt, a sibling of the key.
func deliverStored(ctx context.Context, store Events, evt Stored) error {
	evt = evt.MarkDelivering().IncrementAttempts()
	if err := store.Update(ctx, evt); err != nil {
		return err
	}
	return sendStored(ctx, evt)
}

// The deliveries handed on in a slice built with append, and the
// repository that writes each one's key: the ULID stays a sibling.
type CreateParams struct {
	UID            string
	IdempotencyKey string
}

type Queries struct{}

func (Queries) InsertDelivery(ctx context.Context, p CreateParams) error { return nil }

type Store struct{ q Queries }

func (s *Store) CreateAll(ctx context.Context, ds []*Delivery) error {
	for _, d := range ds {
		if err := s.q.InsertDelivery(ctx, toParams(d)); err != nil {
			return err
		}
	}
	return nil
}

func toParams(d *Delivery) CreateParams {
	return CreateParams{UID: d.UID, IdempotencyKey: d.IdempotencyKey}
}

// Silent: each delivery's key is its event's.
func fanOutAll(ctx context.Context, st *Store, evs []Event) error {
	var ds []*Delivery
	for _, ev := range evs {
		d := &Delivery{UID: ulid.Make().String(), IdempotencyKey: ev.IdempotencyKey}
		ds = append(ds, d)
	}
	return st.CreateAll(ctx, ds)
}

// Found: the ULID is the key.
func fanOutAllFresh(ctx context.Context, st *Store, evs []Event) error {
	var ds []*Delivery
	for _, ev := range evs {
		d := &Delivery{UID: ev.ID, IdempotencyKey: ulid.Make().String()}
		ds = append(ds, d)
	}
	return st.CreateAll(ctx, ds) // want `built from ulid\.Make`
}

// The same through another package's repository, behind an interface.
func fanOutRepo(ctx context.Context, repo store.Repository, evs []Event) error {
	var ds []*store.Delivery
	for _, ev := range evs {
		d := &store.Delivery{UID: ulid.Make().String(), IdempotencyKey: ev.IdempotencyKey}
		ds = append(ds, d)
	}
	return repo.CreateAll(ctx, ds)
}

func fanOutRepoFresh(ctx context.Context, repo store.Repository, evs []Event) error {
	var ds []*store.Delivery
	for _, ev := range evs {
		d := &store.Delivery{UID: ev.ID, IdempotencyKey: ulid.Make().String()}
		ds = append(ds, d)
	}
	return repo.CreateAll(ctx, ds) // want `built from ulid\.Make`
}

var _ store.Repository = (*store.Store)(nil)

// KeyRecord is a row of an idempotency table: its key is one field, the
// response cached under it another.
type KeyRecord struct {
	KeyID           string
	Status          string
	ResponseMessage string
}

type KeyedRecord struct {
	IdempotencyKey string
	Response       string
}

type Keys struct{}

// Finish stores a record; its parameter is named for the record, not a key.
func (Keys) Finish(ctx context.Context, idempotencyKey *KeyRecord) error { return nil }

// Store stores a record whose key field is named like a key.
func (Keys) Store(ctx context.Context, idempotencyKey KeyedRecord) error { return nil }

// Silent: a parameter named like a key that holds a whole record is not
// the key; the fresh token is the response cached beside the client's key.
func login(ctx context.Context, ks Keys, clientKey string) error {
	rec := &KeyRecord{KeyID: clientKey, Status: "PENDING"}
	rec.ResponseMessage = "token:" + ulid.Make().String()
	return ks.Finish(ctx, rec)
}

// Silent: the record's key field holds the client's key.
func storeClientKey(ctx context.Context, ks Keys, clientKey string) error {
	return ks.Store(ctx, KeyedRecord{IdempotencyKey: clientKey, Response: ulid.Make().String()})
}

// Found: the record's key field holds a fresh ULID.
func storeFreshKey(ctx context.Context, ks Keys) error {
	return ks.Store(ctx, KeyedRecord{IdempotencyKey: ulid.Make().String()}) // want `ulid.Make`
}

// StoreRef stores a record by pointer.
func (Keys) StoreRef(ctx context.Context, idempotencyKey *KeyedRecord) error { return nil }

// Found: through a pointer, the key field holds a fresh ULID.
func storeFreshKeyRef(ctx context.Context, ks Keys) error {
	rec := &KeyedRecord{Response: "ok"}
	rec.IdempotencyKey = ulid.Make().String()
	return ks.StoreRef(ctx, rec) // want `ulid.Make`
}

// Silent: through a pointer, only the response is fresh.
func storeClientKeyRef(ctx context.Context, ks Keys, clientKey string) error {
	rec := &KeyedRecord{IdempotencyKey: clientKey}
	rec.Response = ulid.Make().String()
	return ks.StoreRef(ctx, rec)
}
