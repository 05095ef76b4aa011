// Package pgembed runs a throwaway PostgreSQL cluster from the server
// binaries installed on the machine (initdb and postgres on PATH or under
// /usr/lib/postgresql/*/bin): a temporary directory, a unix socket and a
// random loopback port, trust authentication, everything removed by Stop.
// restart-test uses it when no --dsn is given, and tests use it when
// IDEMCHECK_TEST_DATABASE is unset. Under root the server runs as the
// postgres OS user, because PostgreSQL refuses to run as root.
package pgembed
