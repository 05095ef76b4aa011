// Package e2e verifies the golangci-lint module plugin end to end: its
// test builds a custom golangci-lint with the plugin
// (plugin/build-golangci-lint.sh) and checks that it reports on a fixture
// module exactly what `idemcheck lint` reports.
//
// It is a module of its own so that the root module's `go test ./...` does
// not include a build of golangci-lint that takes minutes; CI (.ci/run)
// runs it after the main tests:
//
//	cd plugin/e2e && go test ./...
package e2e
