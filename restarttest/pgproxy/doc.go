// Package pgproxy is a PostgreSQL wire-protocol proxy that watches a client's
// transactions on their way to a real server.
//
// A client (the program under test) connects to the proxy on a loopback TCP
// port as it would to PostgreSQL. For each client connection the proxy opens
// one upstream connection with pgconn, authenticating with the upstream DSN's
// credentials, and from then on relays the protocol message by message with
// pgproto3: simple and extended queries, pipelines, COPY in both directions,
// notifications, cancel requests (forwarded to the backend they name).
//
// While relaying it keeps track of each connection's transaction and of
// which statements wrote, from the CommandComplete tags the server sends
// (INSERT/UPDATE/DELETE/MERGE with rows, COPY FROM, DDL) and, where a tag
// cannot tell (a data-modifying WITH, SELECT INTO, CREATE TABLE AS), from a
// lexical look at the statement. When a writing transaction commits, the
// server's reply to the commit is held and Config.OnCommit decides: deliver
// it, or drop it and close the client's connection. That is the exact point
// "committed, but the client does not know yet", which a crash test needs.
// Config.BeforeWrite runs before a writing statement is forwarded and may
// block to hold it; Config.OnStatement sees every statement.
//
// The proxy speaks plaintext: a client asking for TLS or GSS encryption is
// answered 'N' (no), as PostgreSQL itself answers when it has no TLS, and the
// client decides whether to continue without. It is meant for loopback use
// by a test harness, not as a network service: clients are not
// authenticated by the proxy.
package pgproxy
