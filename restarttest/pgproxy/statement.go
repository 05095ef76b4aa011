package pgproxy

import (
	"strconv"
	"strings"
)

// Kind is what a statement does to the database, as far as its text tells.
type Kind int

const (
	KindOther              Kind = iota // reads, SET, SHOW, DO, CALL, …: not known to write
	KindWrite                          // INSERT, UPDATE, DELETE, MERGE, TRUNCATE, COPY FROM, data-modifying WITH, SELECT INTO
	KindDDL                            // CREATE, ALTER, DROP, COMMENT, GRANT, REVOKE, …
	KindBegin                          // BEGIN, START TRANSACTION
	KindCommit                         // COMMIT, END
	KindRollback                       // ROLLBACK, ABORT (the whole transaction)
	KindRollbackTo                     // ROLLBACK TO SAVEPOINT
	KindPrepareTransaction             // PREPARE TRANSACTION: the writes are not committed yet
)

func (k Kind) String() string {
	return [...]string{"other", "write", "ddl", "begin", "commit", "rollback", "rollback-to", "prepare-transaction"}[k]
}

// Statement is one SQL statement a client sent.
type Statement struct {
	SQL  string
	Kind Kind
	// First is the statement's first keyword, lower-cased ("savepoint").
	First string
	// Set for COPY: data flows into a table (FROM), a command runs on the
	// database server (PROGRAM), or a file on the server is read or written.
	CopyFrom, CopyProgram, CopyServerFile bool
}

// Writes reports whether the statement is known, from its text, to write.
func (s Statement) Writes() bool { return s.Kind == KindWrite || s.Kind == KindDDL }

// ddlWords start statements that change the catalog.
var ddlWords = map[string]bool{
	"create": true, "alter": true, "drop": true, "comment": true, "grant": true, "revoke": true,
	"security": true, "refresh": true, "reindex": true, "cluster": true, "import": true, "reassign": true,
}

// token is one lexical unit of SQL: a word (lower-cased keyword or bare
// identifier), a string literal, or one punctuation byte.
type token struct {
	word  string
	str   bool
	punct byte
	depth int // parenthesis depth the token is at
}

// Split cuts a query string into its statements the way the server does:
// at semicolons outside quotes, comments and parentheses. Empty statements
// are dropped.
func Split(sql string) []Statement {
	var out []Statement
	start := 0
	var toks []token
	lex(sql, func(t token, pos int) {
		if t.punct == ';' && t.depth == 0 {
			if len(toks) > 0 {
				out = append(out, classify(strings.TrimSpace(sql[start:pos]), toks))
			}
			toks, start = nil, pos+1
			return
		}
		toks = append(toks, t)
	})
	if len(toks) > 0 {
		out = append(out, classify(strings.TrimSpace(sql[start:]), toks))
	}
	return out
}

// Classify returns the statement a Parse message carries (one statement).
func Classify(sql string) Statement {
	var toks []token
	lex(sql, func(t token, _ int) { toks = append(toks, t) })
	return classify(strings.TrimSpace(sql), toks)
}

func classify(sql string, toks []token) Statement {
	st := Statement{SQL: sql}
	words := func(i int) string {
		if i < len(toks) {
			return toks[i].word
		}
		return ""
	}
	st.First = words(0)
	switch first := st.First; {
	case first == "insert" || first == "update" || first == "delete" || first == "merge" || first == "truncate":
		st.Kind = KindWrite
	case first == "copy":
		classifyCopy(&st, toks)
	case first == "with":
		if modifiesData(toks) {
			st.Kind = KindWrite
		}
	case first == "select":
		for _, t := range toks {
			if t.depth == 0 && t.word == "into" {
				st.Kind = KindWrite // SELECT … INTO creates a table
			}
		}
	case first == "explain":
		if hasWord(toks, "analyze") && modifiesData(toks) {
			st.Kind = KindWrite // EXPLAIN ANALYZE runs the statement
		}
	case ddlWords[first]:
		st.Kind = KindDDL
	case first == "begin" || first == "start":
		st.Kind = KindBegin
	case first == "commit" || first == "end":
		st.Kind = KindCommit
	case first == "abort":
		st.Kind = KindRollback
	case first == "rollback":
		st.Kind = KindRollback
		if words(1) == "to" {
			st.Kind = KindRollbackTo
		}
	case first == "prepare" && words(1) == "transaction":
		st.Kind = KindPrepareTransaction
	}
	return st
}

// classifyCopy reads the direction and the far end of a COPY: the first
// FROM or TO outside parentheses (COPY (SELECT … FROM …) TO … has its FROM
// inside), then STDIN/STDOUT, PROGRAM, or a file name.
func classifyCopy(st *Statement, toks []token) {
	for i := 1; i < len(toks); i++ {
		t := toks[i]
		if t.depth != 0 || (t.word != "from" && t.word != "to") {
			continue
		}
		if t.word == "from" {
			st.CopyFrom = true
			st.Kind = KindWrite
		}
		if i+1 < len(toks) {
			next := toks[i+1]
			st.CopyProgram = next.word == "program"
			st.CopyServerFile = next.str
		}
		return
	}
}

// modifiesData reports whether INSERT, UPDATE, DELETE or MERGE appears as a
// keyword, as in a data-modifying WITH. UPDATE after FOR or KEY is a row
// lock (FOR UPDATE, FOR NO KEY UPDATE), not a write.
func modifiesData(toks []token) bool {
	for i, t := range toks {
		switch t.word {
		case "insert", "delete", "merge":
			return true
		case "update":
			if i == 0 || (toks[i-1].word != "for" && toks[i-1].word != "key") {
				return true
			}
		}
	}
	return false
}

func hasWord(toks []token, w string) bool {
	for _, t := range toks {
		if t.word == w {
			return true
		}
	}
	return false
}

// lex calls emit for every token of sql with its byte offset. It knows
// the quoting rules that hide semicolons and keywords: '…' (with ” and,
// after E, backslash escapes), "…", $tag$…$tag$, -- and nested /* */.
func lex(sql string, emit func(token, int)) {
	depth := 0
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			i = skipBlockComment(sql, i)
		case c == '\'':
			emit(token{str: true, depth: depth}, i)
			i = skipQuoted(sql, i, '\'', false)
		case c == '"':
			emit(token{punct: c, depth: depth}, i) // a quoted identifier is never a keyword
			i = skipQuoted(sql, i, '"', false)
		case c == '$' && i+1 < len(sql) && !isDigit(sql[i+1]):
			if end, ok := skipDollarQuoted(sql, i); ok {
				emit(token{str: true, depth: depth}, i)
				i = end
				continue
			}
			emit(token{punct: c, depth: depth}, i)
			i++
		case isWordStart(c):
			j := i
			for j < len(sql) && isWordPart(sql[j]) {
				j++
			}
			// E'…' and e'…' escape strings, also U&'…', B'…', X'…', N'…'.
			if j < len(sql) && sql[j] == '\'' && j-i <= 2 {
				emit(token{str: true, depth: depth}, i)
				i = skipQuoted(sql, j, '\'', strings.EqualFold(sql[i:j], "e"))
				continue
			}
			emit(token{word: strings.ToLower(sql[i:j]), depth: depth}, i)
			i = j
		case c == '(':
			emit(token{punct: c, depth: depth}, i)
			depth++
			i++
		case c == ')':
			if depth > 0 {
				depth--
			}
			emit(token{punct: c, depth: depth}, i)
			i++
		default:
			emit(token{punct: c, depth: depth}, i)
			i++
		}
	}
}

func skipBlockComment(sql string, i int) int {
	nest := 0
	for i < len(sql) {
		switch {
		case strings.HasPrefix(sql[i:], "/*"):
			nest++
			i += 2
		case strings.HasPrefix(sql[i:], "*/"):
			nest--
			i += 2
			if nest == 0 {
				return i
			}
		default:
			i++
		}
	}
	return i
}

// skipQuoted returns the offset after the quoted text starting at i.
func skipQuoted(sql string, i int, q byte, backslash bool) int {
	for i++; i < len(sql); i++ {
		switch {
		case backslash && sql[i] == '\\':
			i++
		case sql[i] == q:
			if i+1 < len(sql) && sql[i+1] == q {
				i++
				continue
			}
			return i + 1
		}
	}
	return i
}

// skipDollarQuoted skips $tag$…$tag$ starting at i; ok is false when the
// dollar sign does not open a dollar quote.
func skipDollarQuoted(sql string, i int) (int, bool) {
	j := i + 1
	for j < len(sql) && isWordPart(sql[j]) && sql[j] != '$' {
		j++
	}
	if j >= len(sql) || sql[j] != '$' {
		return 0, false
	}
	tag := sql[i : j+1]
	end := strings.Index(sql[j+1:], tag)
	if end < 0 {
		return len(sql), true
	}
	return j + 1 + end + len(tag), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isWordStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
func isWordPart(c byte) bool { return isWordStart(c) || isDigit(c) || c == '$' }

// TagWrites reports whether a CommandComplete tag says the statement wrote:
// INSERT/UPDATE/DELETE/MERGE of at least one row, COPY into a table (copyIn:
// the server asked for the client's data, or the statement reads a server
// file), and DDL. A SELECT tag comes from a query that writes only through
// a data-modifying WITH, SELECT INTO or CREATE TABLE AS, which only the
// statement's text shows.
func TagWrites(tag string, st Statement, copyIn bool) bool {
	verb, _, _ := strings.Cut(tag, " ")
	switch verb {
	case "INSERT", "UPDATE", "DELETE", "MERGE":
		return tagRows(tag) > 0
	case "COPY":
		return tagRows(tag) > 0 && (copyIn || st.CopyFrom)
	case "SELECT", "EXPLAIN":
		return st.Writes()
	case "TRUNCATE", "CREATE", "ALTER", "DROP", "COMMENT", "GRANT", "REVOKE", "SECURITY", "REFRESH", "IMPORT", "REINDEX", "CLUSTER", "REASSIGN":
		return true
	}
	return false
}

// tagRows is the row count at the end of a tag ("INSERT 0 3" → 3).
func tagRows(tag string) int64 {
	i := strings.LastIndexByte(tag, ' ')
	if i < 0 {
		return 0
	}
	n, _ := strconv.ParseInt(tag[i+1:], 10, 64)
	return n
}
