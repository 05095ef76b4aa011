// Package nanoid is a look-alike of a nanoid library: random bytes mapped
// through an alphabet.
package nanoid

import "crypto/rand"

const alphabet = "_-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// New returns a random 21-character id.
func New() (string, error) {
	b := make([]byte, 21)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	id := make([]byte, 21)
	for i := range b {
		id[i] = alphabet[b[i]&63]
	}
	return string(id), nil
}
