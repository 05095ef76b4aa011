#!/usr/bin/python3
"""Shows by hand, without idemcheck, that each mutant of the stdin example
handlers really breaks something.

restart-test's mutation test (restarttest/mutation_test.go) says which
mutants restart-test catches. This script is the other half: the oracle that
a caught mutant is really broken, and that a mutant listed as breaking
nothing does not. It shares no code with idemcheck: its own reading of the
mutant marks (docs/restart-test.md, "Mutation testing of the checker"), its
own fake provider, and the scenarios written out step by step, as a person
would replay them with psql and curl:

  lost-response  the provider executes the first charge and hangs up before
                 answering; the message is delivered again until the
                 handler exits 0. One charge, acknowledged.
  respell        the first delivery's charge is executed and its answer
                 lost; the sender re-sends the payment under a new message
                 id with the CPF unpunctuated and the amount as 150.0,
                 delivered until acknowledged. One charge, acknowledged.
  forgets        delivered and acknowledged; the provider forgets its keys
                 (its retention); delivered again. One charge.
  second-tenant  delivered and acknowledged; the same message for another
                 tenant under a new message id. Two charges, one each.
  copy-killed    two copies at once; the first copy's charge request is
                 held at the provider; the second runs to its end; the
                 first is killed; if the second did not acknowledge it is
                 delivered again until it does. One charge.

The Idempotency-Key APIs (api/right in Go, Python and Node) are the
client's side of the same contract; each scenario starts the server on a
fresh schema and sends it requests as two clients (alice, bob) would:

  api-retry      the provider executes the first charge and hangs up; the
                 client retries with the same key until 201. One charge,
                 one order.
  api-replay     a retry after the 201 gets the same status and body.
  api-mismatch   the same key with another amount gets 422, and no order.
  api-clients    alice and bob each send the same key and body: two
                 operations, two charges, two orders.
  api-in-flight  a second request with the key while the first is held at
                 the provider gets 409; once both end, one order.
  api-crash      the first attempt fails between the order's insert and the
                 key's completion (a trigger raises once, as a crash would
                 stop it there); the client retries. One order.

The RabbitMQ consumers (consumers/amqp in Go, python/node consumer/intent)
consume a fresh queue; a consumer is started again whenever it dies, and a
message counts as acknowledged when the queue is empty once its consumer
is stopped (an unacknowledged message goes back to the queue):

  mq-lost-response  the provider executes the first charge and hangs up.
                    One charge, acknowledged.
  mq-respell        as respell, both published to the queue. One charge.
  mq-forgets        as forgets. One charge.
  mq-second-tenant  as second-tenant. Two charges.

localorder (Go) takes the message as a POST and writes an order row:

  post-redelivered  the same message POSTed twice (a redelivery): both
                    answered 2xx with the same body, one order.

Usage: scripts/mutant-breakage.py [HANDLER ...]  (default: every handler).
The consumers need RabbitMQ at AMQP_URL (default amqp://guest:guest@127.0.0.1:5672/)
and /usr/bin/python3 with pika. Needs PostgreSQL (IDEMCHECK_TEST_DATABASE or
postgres://postgres@127.0.0.1:5432/test), psql, curl, go, /usr/bin/python3
with psycopg, and node with testdata/restart/node's modules (npm ci there).
Exit 0 when every original holds in every scenario and every mutant breaks
one (but those listed in BREAKS_NOTHING, which must break none), else 1.
"""

import hashlib
import http.server
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import urllib.parse
import uuid

import time

import psycopg

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESTART = os.path.join(ROOT, "testdata", "restart")
DSN = os.environ.get("IDEMCHECK_TEST_DATABASE", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable")

# handler: (files with marks, setup file, how to run it: "go" or an interpreter)
HANDLERS = {
    "intent": (["intent/main.go", "intent/setup.sql"], "intent/setup.sql", "go"),
    "sh/intent.sh": (["sh/intent.sh", "sh/setup.sql"], "sh/setup.sql", "sh"),
    "python/intent": (["python/intent/main.py", "sh/setup.sql"], "sh/setup.sql", "/usr/bin/python3"),
    "node/intent": (["node/intent/main.js", "sh/setup.sql"], "sh/setup.sql", "node"),
    "api/right": (["api/right/main.go", "api/setup.sql"], "api/setup.sql", "go"),
    "python/api/right": (["python/api/right/main.py", "api/setup.sql"], "api/setup.sql", "/usr/bin/python3"),
    "node/api/right": (["node/api/right/main.js", "api/setup.sql"], "api/setup.sql", "node"),
    "localorder": (["localorder/main.go", "localorder/setup.sql"], "localorder/setup.sql", "go"),
    "consumers/amqp": (["consumers/amqp/main.go", "consumers/setup.sql"], "consumers/setup.sql", "go -key intent"),
    "python/consumer/intent": (["python/consumer/intent/main.py", "consumers/setup.sql"], "consumers/setup.sql", "/usr/bin/python3"),
    "node/consumer/intent": (["node/consumer/intent/main.js", "consumers/setup.sql"], "consumers/setup.sql", "node"),
}
AMQP_URL = os.environ.get("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")

# Mutants whose safeguard another one covers: they must break nothing.
BREAKS_NOTHING = {("intent", "unique-constraint")}

BEGIN = re.compile(r"^\s*(//|#|--)\s*mutant:([a-z0-9-]+)\s*$")
ADD = re.compile(r"^(\s*)(//|#|--)\s*mutant> ?(.*)$")
END = re.compile(r"^\s*(//|#|--)\s*mutant:end\s*$")


def mutant_names(sources):
    names = set()
    for src in sources.values():
        for line in src.splitlines():
            m = BEGIN.match(line)
            if m and m.group(2) != "end":
                names.add(m.group(2))
    return sorted(names)


def apply_mutant(src, name):
    """The source with region `name` replaced by its `mutant>` lines, the
    other regions as they are (their `mutant>` lines stay comments)."""
    out, region = [], None
    for line in src.splitlines(keepends=True):
        if region is None:
            m = BEGIN.match(line)
            if m and m.group(2) != "end":
                region = m.group(2)
                if region != name:
                    out.append(line)
                continue
            out.append(line)
            continue
        if END.match(line):
            if region != name:
                out.append(line)
            region = None
            continue
        add = ADD.match(line)
        if region == name:
            if add:
                out.append(add.group(1) + add.group(3) + "\n")
        else:
            out.append(line)
    return "".join(out)


class Provider:
    """A fake payment provider: executes a charge once per Idempotency-Key,
    replays it for the same body, refuses another body with 422."""

    def __init__(self):
        self.lock = threading.Lock()
        self.reset()
        provider = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                provider.serve(self, self.headers.get("Idempotency-Key", ""), body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]

    def reset(self):
        with self.lock:
            self.keys = {}
            self.charges = []
            self.hang_up_first = False
            self.hold_first = None  # an Event the first request waits on
            self.drop_held = True  # the held request's sender is killed: never executed
            self.held = threading.Event()
            self.requests = 0

    def forget(self):
        with self.lock:
            self.keys = {}

    def serve(self, req, key, body):
        fp = hashlib.sha256(body).hexdigest()
        with self.lock:
            self.requests += 1
            first = self.requests == 1
            hold = self.hold_first if first else None
        if hold is not None:
            self.held.set()
            hold.wait(30)
            if self.drop_held:
                return  # the sender was killed meanwhile: nothing executed
        with self.lock:
            known = self.keys.get(key) if key else None
            if known and known[0] != fp:
                status, answer = 422, {"error": "key reused with another body"}
            elif known:
                status, answer = 200, known[1]
            else:
                self.charges.append((key, body.decode()))
                answer = {"id": "ch_%d" % len(self.charges)}
                if key:
                    self.keys[key] = (fp, answer)
                status = 200
            hang_up = first and self.hang_up_first
        if hang_up:
            req.close_connection = True
            req.connection.shutdown(2)
            return
        data = json.dumps(answer).encode()
        req.send_response(status)
        req.send_header("Content-Type", "application/json")
        req.send_header("Content-Length", str(len(data)))
        req.end_headers()
        req.wfile.write(data)


def ddl(sql, schema=None):
    """Runs DDL, again while it fails because an event trigger's function
    went away under it: restart-test runs beside this script guard the
    database with triggers whose function lives in their session, and a run
    killed mid-way takes it along while another session's command had
    already looked the triggers up ("cache lookup failed for function").
    The next attempt rereads the list, so the failure says nothing here."""
    for attempt in range(6):
        try:
            with psycopg.connect(DSN, autocommit=True) as conn:
                if schema:
                    conn.execute("set search_path = " + schema)
                conn.execute(sql)
            return
        except psycopg.errors.InternalError_ as e:
            if attempt == 5 or not str(e).startswith("cache lookup failed for function"):
                raise
            time.sleep(0.1 * (attempt + 1))


class Run:
    """One scenario: a fresh schema with the setup applied, the handler's
    environment pointing at it and at the provider."""

    def __init__(self, command, setup, provider):
        self.command, self.provider = command, provider
        self.schema = "breakage_" + uuid.uuid4().hex[:10]
        ddl("create schema " + self.schema)
        ddl(setup, self.schema)
        options = "-c search_path=" + self.schema
        parts = urllib.parse.urlsplit(DSN)
        query = urllib.parse.parse_qsl(parts.query) + [("options", options)]
        url = urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query, quote_via=urllib.parse.quote)))
        self.env = dict(os.environ, DATABASE_URL=url, PROVIDER_URL=provider.url, IDEMPOTENCY_HMAC_KEY="breakage-secret",
                        PGOPTIONS=options, PGHOST=parts.hostname or "127.0.0.1", PGPORT=str(parts.port or 5432),
                        PGUSER=parts.username or "postgres", PGDATABASE=parts.path.lstrip("/") or "postgres",
                        NODE_PATH=os.path.join(RESTART, "node", "node_modules"))
        provider.reset()

    def close(self):
        ddl("drop schema %s cascade" % self.schema)

    def start(self, msg):
        p = subprocess.Popen(self.command, shell=True, env=self.env, stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        p.stdin.write(json.dumps(msg).encode())
        p.stdin.close()
        return p

    def deliver(self, msg):
        p = self.start(msg)
        return p.wait(60) == 0

    def until_acked(self, msg, attempts=4):
        return any(self.deliver(msg) for _ in range(attempts))


def message():
    with open(os.path.join(RESTART, "message.json")) as f:
        return json.load(f)


def resent(msg, **payment):
    out = json.loads(json.dumps(msg))
    out["message_id"] = "wamid." + uuid.uuid4().hex
    out["payment"].update(payment)
    return out


def lost_response(run):
    msg = message()
    run.provider.hang_up_first = True
    acked = run.until_acked(msg)
    return ok_if(acked and len(run.provider.charges) == 1, acked, run, "1 charge, acknowledged")


def respell(run):
    msg = message()
    run.provider.hang_up_first = True
    run.deliver(msg)  # its charge executed, the answer lost
    again = resent(msg, chave_pix_destino=re.sub(r"\D", "", msg["payment"]["chave_pix_destino"]), valor=150.0)
    acked = run.until_acked(again)
    return ok_if(acked and len(run.provider.charges) == 1, acked, run, "1 charge, the re-send acknowledged")


def forgets(run):
    msg = message()
    first = run.until_acked(msg)
    run.provider.forget()
    acked = first and run.until_acked(msg)
    return ok_if(acked and len(run.provider.charges) == 1, acked, run, "1 charge")


def second_tenant(run):
    msg = message()
    other = resent(msg)
    other["tenant"] = "globex"
    acked = run.until_acked(msg) and run.until_acked(other)
    return ok_if(acked and len(run.provider.charges) == 2, acked, run, "2 charges, one per tenant")


def copy_killed(run):
    msg = message()
    release = threading.Event()
    run.provider.hold_first = release
    first = run.start(msg)
    if not run.provider.held.wait(30):
        first.kill()
        return False, "the first copy never reached the provider"
    second_acked = run.deliver(msg)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    release.set()
    acked = second_acked or run.until_acked(msg)
    return ok_if(acked and len(run.provider.charges) == 1, acked, run, "1 charge")


def ok_if(ok, acked, run, want):
    got = "%d charge(s)%s" % (len(run.provider.charges), "" if acked else ", never acknowledged")
    return ok, "want %s, got %s" % (want, got)


SCENARIOS = [("lost-response", lost_response), ("respell", respell), ("forgets", forgets),
             ("second-tenant", second_tenant), ("copy-killed", copy_killed)]


class Server:
    """An API handler's server on a free port, for one scenario."""

    def __init__(self, run):
        import socket
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.run = run
        self.proc = subprocess.Popen("exec %s 127.0.0.1:%d" % (run.command, self.port), shell=True, env=run.env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not listen within 60s")

    def close(self):
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def post(self, client, key, body, path="/v1/orders"):
        import http.client
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Content-Type": "application/json"}
        if client:
            headers.update({"Authorization": "Bearer " + client, "Idempotency-Key": key})
        conn.request("POST", path, body=json.dumps(body), headers=headers)
        resp = conn.getresponse()
        out = (resp.status, resp.read())
        conn.close()
        return out

    def until_created(self, client, key, body, attempts=6):
        status = 0
        for _ in range(attempts):
            status, out = self.post(client, key, body)
            if status // 100 == 2:
                return status, out
            time.sleep(1.1 if status == 409 else 0.2)
        return status, b""

    def orders(self):
        with psycopg.connect(DSN, autocommit=True) as conn:
            return conn.execute("select count(*) from %s.orders" % self.run.schema).fetchone()[0]


def api_result(ok, server, want, extra=""):
    got = "%d charge(s), %d order(s)%s" % (len(server.run.provider.charges), server.orders(), extra)
    return ok, "want %s, got %s" % (want, got)


def api_retry(server):
    server.run.provider.hang_up_first = True
    status, _ = server.until_created("alice", "k-1", message())
    ok = status // 100 == 2 and len(server.run.provider.charges) == 1 and server.orders() == 1
    return api_result(ok, server, "201, 1 charge, 1 order", ", last %d" % status)


def api_replay(server):
    first = server.until_created("alice", "k-1", message())
    again = server.post("alice", "k-1", message())
    ok = first[0] // 100 == 2 and again == first
    return ok, "want the stored answer again, got %d %s then %d %s" % (first[0], first[1][:40], again[0], again[1][:40])


def api_mismatch(server):
    server.until_created("alice", "k-1", message())
    other = message()
    other["payment"]["valor"] = "151.00"
    status, _ = server.post("alice", "k-1", other)
    return api_result(status == 422 and server.orders() == 1, server, "422, 1 order", ", the other amount got %d" % status)


def api_clients(server):
    a, _ = server.until_created("alice", "k-1", message())
    b, _ = server.until_created("bob", "k-1", message())
    ok = a // 100 == 2 and b // 100 == 2 and len(server.run.provider.charges) == 2 and server.orders() == 2
    return api_result(ok, server, "2 charges, 2 orders")


def api_in_flight(server):
    release = threading.Event()
    server.run.provider.hold_first = release
    server.run.provider.drop_held = False
    first = {}
    t = threading.Thread(target=lambda: first.update(answer=server.post("alice", "k-1", message())))
    t.start()
    if not server.run.provider.held.wait(30):
        release.set()
        return False, "the first request never reached the provider"
    second, _ = server.post("alice", "k-1", message())
    release.set()
    t.join(60)
    ok = second == 409 and server.orders() == 1
    return api_result(ok, server, "409 for the second, 1 order", ", the second got %d" % second)


def api_crash(server):
    ddl("""
create sequence crashes; -- nextval survives the rollback the exception makes
create function crash_once() returns trigger language plpgsql as $$
begin
  if new.status = 'done' and nextval('crashes') = 1 then
    raise exception 'crash between the order and the key''s completion';
  end if;
  return new;
end $$;
create trigger crash_once before update on idempotency_keys for each row execute function crash_once();""", server.run.schema)
    status, _ = server.until_created("alice", "k-1", message())
    return api_result(status // 100 == 2 and server.orders() == 1, server, "201, 1 order", ", last %d" % status)


def post_redelivered(server):
    first = server.post("", "", message(), "/orders")
    again = server.post("", "", message(), "/orders")
    ok = first[0] // 100 == 2 and again == first and server.orders() == 1
    return ok, "want the same 2xx answer twice and 1 order, got %d %s, then %d %s, %d order(s)" % (
        first[0], first[1][:30], again[0], again[1][:30], server.orders())


API_SCENARIOS = [("api-retry", api_retry), ("api-replay", api_replay), ("api-mismatch", api_mismatch),
                 ("api-clients", api_clients), ("api-in-flight", api_in_flight), ("api-crash", api_crash)]


class Queue:
    """A fresh RabbitMQ queue and the consumers of one scenario."""

    def __init__(self, run):
        import pika
        self.run = run
        self.name = "breakage-" + uuid.uuid4().hex[:10]
        self.conn = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
        self.ch = self.conn.channel()
        self.ch.queue_declare(self.name, durable=False)
        run.env.update(AMQP_URL=AMQP_URL, AMQP_QUEUE=self.name)

    def close(self):
        self.ch.queue_delete(self.name)
        self.conn.close()

    def publish(self, msg):
        self.ch.basic_publish("", self.name, json.dumps(msg).encode())

    def ready(self):
        return self.ch.queue_declare(self.name, passive=True).method.message_count

    def drain(self, starts=4):
        """Runs consumers until the queue is empty with none of them alive;
        reports whether that happened within starts consumer starts."""

        for _ in range(starts):
            p = subprocess.Popen(self.run.command, shell=True, env=self.run.env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
            deadline = time.time() + 20
            quiet = 0
            while time.time() < deadline and p.poll() is None and quiet < 15:
                time.sleep(0.1)
                quiet = quiet + 1 if self.ready() == 0 else 0
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            time.sleep(0.3)  # a dead consumer's messages return asynchronously
            if self.ready() == 0:
                return True
        return False


def mq_result(ok, queue, want, acked=True):
    got = "%d charge(s)%s" % (len(queue.run.provider.charges), "" if acked else ", never acknowledged")
    return ok, "want %s, got %s" % (want, got)


def mq_lost_response(q):
    q.run.provider.hang_up_first = True
    q.publish(message())
    acked = q.drain()
    return mq_result(acked and len(q.run.provider.charges) == 1, q, "1 charge, acknowledged", acked)


def mq_respell(q):
    msg = message()
    q.run.provider.hang_up_first = True
    q.publish(msg)
    q.publish(resent(msg, chave_pix_destino=re.sub(r"\D", "", msg["payment"]["chave_pix_destino"]), valor=150.0))
    acked = q.drain(6)
    return mq_result(acked and len(q.run.provider.charges) == 1, q, "1 charge, both acknowledged", acked)


def mq_forgets(q):
    q.publish(message())
    acked = q.drain()
    q.run.provider.forget()
    q.publish(message())
    acked = acked and q.drain()
    return mq_result(acked and len(q.run.provider.charges) == 1, q, "1 charge", acked)


def mq_second_tenant(q):
    msg = message()
    other = resent(msg)
    other["tenant"] = "globex"
    q.publish(msg)
    acked = q.drain()
    q.publish(other)
    acked = acked and q.drain()
    return mq_result(acked and len(q.run.provider.charges) == 2, q, "2 charges, one per tenant", acked)


MQ_SCENARIOS = [("mq-lost-response", mq_lost_response), ("mq-respell", mq_respell), ("mq-forgets", mq_forgets),
                ("mq-second-tenant", mq_second_tenant)]


def scenarios_of(handler):
    if handler == "localorder":
        return [("post-redelivered", post_redelivered)], Server
    if "/api/" in "/" + handler:
        return API_SCENARIOS, Server
    if "consumer" in handler:
        return MQ_SCENARIOS, Queue
    return SCENARIOS, None


def run_scenario(command, setup, provider, scenario, around):
    run = Run(command, setup, provider)
    res = None
    try:
        if around is None:
            return scenario(run)
        res = around(run)
        return scenario(res)
    finally:
        if res is not None:
            res.close()
        run.close()


def build(handler, files, runner, sources, workdir):
    """Writes the handler's (mutated) files out and returns its command and
    setup SQL."""
    if runner.startswith("go"):
        overlay = {"Replace": {}}
        for rel, src in sources.items():
            path = os.path.join(workdir, os.path.basename(rel))
            with open(path, "w") as f:
                f.write(src)
            overlay["Replace"][os.path.join(RESTART, rel)] = path
        with open(os.path.join(workdir, "overlay.json"), "w") as f:
            json.dump(overlay, f)
        binary = os.path.join(workdir, "handler")
        subprocess.run(["go", "build", "-overlay", os.path.join(workdir, "overlay.json"), "-o", binary,
                        "./" + os.path.relpath(os.path.join(RESTART, os.path.dirname(files[0])), ROOT)],
                       cwd=ROOT, check=True)
        command = binary + runner[len("go"):]
    else:
        path = os.path.join(workdir, os.path.basename(files[0]))
        with open(path, "w") as f:
            f.write(sources[files[0]])
        command = "%s %s" % (runner, path)
    return command, sources[files[1]]


def judge(handler, mutant, provider):
    files, _, runner = HANDLERS[handler]
    sources = {}
    for rel in files:
        with open(os.path.join(RESTART, rel)) as f:
            src = f.read()
        sources[rel] = apply_mutant(src, mutant) if mutant else src
    broke = []
    with tempfile.TemporaryDirectory() as workdir:
        command, setup = build(handler, files, runner, sources, workdir)
        scenarios, around = scenarios_of(handler)
        for name, scenario in scenarios:
            ok, detail = run_scenario(command, setup, provider, scenario, around)
            if not ok:
                broke.append("%s (%s)" % (name, detail))
    return broke


def main(argv):
    provider = Provider()
    failures = 0
    for handler in argv or list(HANDLERS):
        files = HANDLERS[handler][0]
        sources = {}
        for rel in files:
            with open(os.path.join(RESTART, rel)) as f:
                sources[rel] = f.read()
        for mutant in [None] + mutant_names(sources):
            broke = judge(handler, mutant, provider)
            nothing = (handler, mutant) in BREAKS_NOTHING
            if mutant is None or nothing:
                good = not broke
            else:
                good = bool(broke)
            failures += not good
            what = "breaks: " + "; ".join(broke) if broke else "breaks nothing"
            print("%-18s %-18s %-4s %s" % (handler, mutant or "(original)", "ok" if good else "BAD", what), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
