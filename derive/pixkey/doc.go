// Package pixkey validates and normalizes the five kinds of Pix key, the
// Brazilian payment identifiers, so that every spelling of one destination
// maps to one canonical value:
//
//   - CPF: 11 digits with two mod-11 check digits ("11144477735").
//   - CNPJ: 12 characters [0-9A-Z] plus 2 numeric check digits, covering the
//     numeric form and the alphanumeric form of IN RFB 2.229/2024
//     ("16727230000197", "12ABC34501DE35").
//   - Phone: a valid number parsed with libphonenumber (default region BR) in
//     E.164 ("+5511987654321"). A missing mobile 9 is never inserted and
//     nothing is zero-padded: an incomplete number is rejected.
//   - E-mail: trimmed, NFC, lowercase, at most 77 characters, DICT's pattern.
//   - EVP (Pix random key): a UUID in canonical lowercase hyphenated form.
//
// The key type is always an input, never guessed: "11912345684" is both a
// valid CPF and a valid São Paulo mobile.
//
// Normalize returns the canonical value or an *Error whose Reason says what is
// wrong. Spellings lists the spellings real systems produce for a value, and
// is what `idemcheck normcheck` feeds to a key function to prove it
// normalizes them all to one key.
package pixkey
