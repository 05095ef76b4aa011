module github.com/idemcheck/idemcheck/plugin/e2e

go 1.26.8
