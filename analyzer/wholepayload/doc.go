// Package wholepayload defines an Analyzer that reports whole structs or
// maps serialized into an idempotency key (rule IDEM004).
//
// # Analyzer wholepayload
//
// wholepayload: report whole payloads serialized into an idempotency key
//
// json.Marshal(order) or fmt.Sprintf("%v", msg) puts every field of the value
// into the key, so a field added later (an updated_at, a retry counter)
// silently changes every key. Derive the key from an explicit field list: a
// composite literal written where the key is built, or a struct type made
// only for the key (named like keyInput or KeyFields).
package wholepayload
