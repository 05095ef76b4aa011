package pgproxy

import "testing"

func TestSplitAndClassify(t *testing.T) {
	cases := []struct {
		sql   string
		kinds []Kind
	}{
		{"insert into t values (1)", []Kind{KindWrite}},
		{"  UPDATE t SET a = 1; delete from t;", []Kind{KindWrite, KindWrite}},
		{"select 1; select ';' ; select $$;$$; select $x$ insert $x$", []Kind{KindOther, KindOther, KindOther, KindOther}},
		{"select 'it''s; fine', E'back\\'slash;' -- ; insert\n; begin", []Kind{KindOther, KindBegin}},
		{"/* a /* nested ; */ comment */ commit", []Kind{KindCommit}},
		{"with x as (insert into t values (1) returning 1) select count(*) from x", []Kind{KindWrite}},
		{"with x as (select * from t for update) select * from x", []Kind{KindOther}},
		{"with x as (select * from t for no key update) select * from x", []Kind{KindOther}},
		{"select * into t2 from t", []Kind{KindWrite}},
		{"select (select 1 into x) from t", []Kind{KindOther}},
		{"create table t (id int); alter table t add b int; drop table t", []Kind{KindDDL, KindDDL, KindDDL}},
		{"rollback; rollback to savepoint a; abort; end; start transaction", []Kind{KindRollback, KindRollbackTo, KindRollback, KindCommit, KindBegin}},
		{"prepare transaction 'x'", []Kind{KindPrepareTransaction}},
		{"explain analyze delete from t", []Kind{KindWrite}},
		{"explain delete from t", []Kind{KindOther}},
		{`select "insert" from "update"`, []Kind{KindOther}},
		{"select $1::int", []Kind{KindOther}},
		{";;  ; -- only comments", nil},
	}
	for _, c := range cases {
		got := Split(c.sql)
		if len(got) != len(c.kinds) {
			t.Errorf("Split(%q) = %d statements %v, want %d", c.sql, len(got), got, len(c.kinds))
			continue
		}
		for i, st := range got {
			if st.Kind != c.kinds[i] {
				t.Errorf("Split(%q)[%d] %q is %s, want %s", c.sql, i, st.SQL, st.Kind, c.kinds[i])
			}
		}
	}
}

func TestClassifyCopy(t *testing.T) {
	cases := []struct {
		sql                  string
		from, program, sfile bool
	}{
		{"copy t from stdin", true, false, false},
		{"COPY t (a, b) FROM STDIN WITH (FORMAT csv)", true, false, false},
		{"copy (select a from t) to stdout", false, false, false},
		{"copy t to program 'gzip > /tmp/x'", false, true, false},
		{"copy t from program 'curl evil'", true, true, false},
		{"copy t from '/etc/passwd'", true, false, true},
	}
	for _, c := range cases {
		st := Classify(c.sql)
		if st.CopyFrom != c.from || st.CopyProgram != c.program || st.CopyServerFile != c.sfile {
			t.Errorf("Classify(%q) = from %v program %v file %v, want %v %v %v", c.sql,
				st.CopyFrom, st.CopyProgram, st.CopyServerFile, c.from, c.program, c.sfile)
		}
		if st.Writes() != c.from {
			t.Errorf("Classify(%q).Writes() = %v", c.sql, st.Writes())
		}
	}
}

func TestTagWrites(t *testing.T) {
	ins := Classify("insert into t values (1)")
	cte := Classify("with x as (delete from t returning 1) select 1")
	sel := Classify("select 1")
	cases := []struct {
		tag    string
		st     Statement
		copyIn bool
		want   bool
	}{
		{"INSERT 0 1", ins, false, true},
		{"INSERT 0 0", ins, false, false},
		{"UPDATE 0", Classify("update t set a = 1"), false, false},
		{"DELETE 3", Classify("delete from t"), false, true},
		{"MERGE 1", Classify("merge into t using s on true when matched then delete"), false, true},
		{"SELECT 1", cte, false, true},
		{"SELECT 1", sel, false, false},
		{"COPY 2", Classify("copy t from stdin"), true, true},
		{"COPY 2", Classify("copy t to stdout"), false, false},
		{"CREATE TABLE", Classify("create table x (a int)"), false, true},
		{"SELECT 5", Classify("create table x as select 1"), false, true},
		{"TRUNCATE TABLE", Classify("truncate t"), false, true},
		{"SET", Classify("set search_path = x"), false, false},
	}
	for _, c := range cases {
		if got := TagWrites(c.tag, c.st, c.copyIn); got != c.want {
			t.Errorf("TagWrites(%q, %q) = %v, want %v", c.tag, c.st.SQL, got, c.want)
		}
	}
}
