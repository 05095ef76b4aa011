// Package graphql stands in for gqlgen's runtime.
package graphql

type CollectedField struct{ Name string }
