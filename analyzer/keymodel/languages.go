package keymodel

import (
	"slices"
	"strings"
	"sync"

	"github.com/idemcheck/idemcheck/analyzer/config"
)

// Tables is the key model of one language other than Go, as data. The
// language-neutral knowledge (header names, key names, transport-identity
// names, SQL rules, operation kinds) is the Model's and is shared; a
// language adds only where its values come from and go.
//
// A pattern's Package is a module as imported ("uuid", "node:crypto" is
// read as "crypto", "@aws-sdk/client-sqs"; "" any module; "globalThis" and
// "builtins" the globals). Function is matched against the dotted name
// used after the module (uuid.uuid4 → "uuid4", datetime.datetime.now →
// "datetime.now"), or, for a method called on a value (Receiver ".+"),
// against the chain of attributes after that value (Payment.objects.get
// → "objects.get", cur.fetchone → "fetchone"). An object built by a
// module (OpenAI(), new Stripe(key), new Pool()) keeps the module: its
// methods are matched as that module's functions (client.chat.completions.create
// → openai "chat.completions.create").
type Tables struct {
	Sources    []config.Pattern // calls that draw a per-attempt value
	Transport  []config.Pattern // fields of a delivery's envelope (Field: normalized access path)
	Barriers   []config.Pattern // calls whose results are stable: read back, replay-stable
	Operations []config.Pattern // store (a database write), read, observe (logging, metrics)
	Inserts    []config.Pattern // writes that create a new row, whose generated id is new per attempt
	Entries    []config.Pattern // how handlers are registered: Kind "route" (nothing redelivers; registered with a path), "procedure" (a route without a path: tRPC's .mutation), "consumer", "script" (run by hand), or "receive" (a broker read that makes the function calling it a polling consumer); an entry with a field instead of a function names a member of an object literal whose members are handlers (GraphQL's Mutation); an entry with a package names the base classes that module gives (a class on one is a handler of that kind: a DRF viewset)
	// Records are calls that write a record at a provider or in a
	// database and return it (stripe.payouts.create, prisma.x.update):
	// the record's fields (its id) are the provider's, not made of the
	// request, so a clock reading in the request does not taint them.
	Records []config.Pattern
	// Webhooks are calls that check a webhook's signature: the route
	// making one receives a webhook, which its sender retries until it
	// gets a 2xx, so code it reaches can run again for one event.
	Webhooks []config.Pattern
	// Endpoints are providers' HTTP APIs called without their SDK: a
	// request whose URL (Function, matched against the URL's text, with
	// "…" for a part not known here) and body field (Field) match does
	// what Kind says. A YooKassa payment that asks for the payer's
	// confirmation moves no money when it is created.
	Endpoints []config.Pattern
	// Retries are a retry library's calls and decorators, which run the
	// function handed to them (or decorated) again until it succeeds, with
	// the same arguments: a key drawn inside it is drawn per try, and one
	// drawn before it is sent by every try, as in a retry loop.
	Retries []config.Pattern
	// Requests are the declared types of an HTTP server's incoming
	// request (express's Request): a header written on one is read by
	// this process's own later handlers, and leaves nothing.
	Requests []config.Pattern
	// Forwarders call the function handed to them (the argument at
	// position Key, from 1) with the arguments that follow it
	// (asyncio.to_thread(stripe.PaymentIntent.create, **params)): the call
	// is judged as that function's own.
	Forwarders []config.Pattern
}

// Stripe's operations that act (IDEM002), per SDK: repeating one without
// the same idempotency key charges, pays, refunds or bills again. They come
// first in Operations, before the generic patterns. Creates that move no
// money and bill nothing (a customer, a checkout session) are not listed:
// a repeat leaves a spare object.
const (
	stripePythonResources = "Charge|PaymentIntent|Transfer|Payout|Refund|Invoice|InvoiceItem|CreditNote|Subscription|SubscriptionItem|SubscriptionSchedule|Topup"
	stripeClientResources = "charges|payment_intents|transfers|payouts|refunds|invoices|invoice_items|credit_notes|subscriptions|subscription_items|subscription_schedules|topups"
	stripeNodeResources   = "charges|paymentIntents|transfers|payouts|refunds|invoices|invoiceItems|creditNotes|subscriptions|subscriptionItems|subscriptionSchedules|topups"
)

// ModuleObject is the receiver of a method called on an object an
// imported module made (new Stripe(key), new PrismaClient()).
const ModuleObject = "value"

// Transport patterns with Receiver "consumer" hold only for a parameter
// of a function registered as a consumer (pika's on_message_callback,
// amqplib's channel.consume, a BullMQ Worker); the others for any value a
// function receives or a call returns.
const ConsumerOnly = "consumer"

// NoModule is the receiver of a method called on an object no imported
// module made: a model instance or manager, a list, a parameter. Patterns
// with this Receiver hold only there (a Django related manager's create
// writes a row; an SDK client's create is an outbound call).
const NoModule = "object"

// Operations of Kind "respond" write the HTTP response to this process's
// caller: key-named fields in it are the caller's receipt, not a key sent
// on. A method pattern holds only on a response handed in as a parameter.

var pythonTables = Tables{
	Sources: []config.Pattern{
		{Package: "uuid", Function: "uuid1|uuid4|uuid6|uuid7|UUID\\.uuid4", Kind: "random"},
		{Package: "secrets", Function: ".*", Kind: "random"},
		{Package: "os", Function: "urandom|getrandom", Kind: "random"},
		{Package: "random", Function: ".*", Kind: "random"},
		{Package: "numpy", Function: "random\\..*", Kind: "random"},
		{Package: "time", Function: "time|time_ns|monotonic|monotonic_ns|perf_counter|perf_counter_ns|localtime|gmtime|strftime", Kind: "clock"},
		{Package: "datetime", Function: "(datetime\\.)?(now|utcnow|today)|date\\.today", Kind: "clock"},
		{Package: "django.utils.timezone", Function: "now|localtime|localdate", Kind: "clock"},
		{Package: "arrow", Function: "now|utcnow", Kind: "clock"},
		{Package: "pendulum", Function: "now|today", Kind: "clock"},
		{Package: "ulid", Function: "new|ULID|(ULID\\.)?from_timestamp|generate", Kind: "random"},
		{Package: "python_ulid", Function: "ULID|(ULID\\.)?from_timestamp", Kind: "random"},
		{Package: "ksuid", Function: "ksuid|Ksuid|KsuidMs|new", Kind: "random"},
		{Package: "svix_ksuid", Function: "Ksuid|KsuidMs", Kind: "random"},
		{Package: "nanoid", Function: "generate|non_secure_generate", Kind: "random"},
		{Package: "shortuuid", Function: "uuid|random|(ShortUUID\\.)?(uuid|random)", Kind: "random"},
		{Package: "openai", Function: ".*(create|parse|stream|generate|complete)", Kind: "model"},
		{Package: "anthropic", Function: ".*(create|stream)", Kind: "model"},
	},
	Transport: []config.Pattern{
		// pika's on_message_callback(channel, method, properties, body),
		// aio-pika's message.
		{Package: "pika", Field: "messageid", Receiver: ConsumerOnly, Kind: "message-id"},
		{Package: "pika", Field: "deliverytag|redelivered", Receiver: ConsumerOnly, Kind: "attempt"},
		{Package: "pika", Field: "(.*\\.)?headers\\.xdeliverycount", Kind: "attempt"},
		{Package: "aio_pika", Field: "(.*\\.)?(properties\\.)?messageid", Receiver: ConsumerOnly, Kind: "message-id"},
		// Celery's bound task.
		{Package: "celery", Field: "request\\.id", Kind: "request-id"},
		{Package: "celery", Field: "request\\.retries", Kind: "attempt"},
		// SQS receive_message()["Messages"][i].
		{Package: "boto3", Field: "(.*\\.)?messages\\.messageid", Kind: "message-id"},
		{Package: "boto3", Field: "(.*\\.)?receipthandle", Kind: "attempt"},
		{Package: "boto3", Field: "(.*\\.)?attributes\\.approximatereceivecount", Kind: "attempt"},
		// Kafka records and NATS JetStream metadata.
		{Package: "kafka", Field: "offset", Receiver: ConsumerOnly, Kind: "message-id"},
		{Package: "nats", Field: "(.*\\.)?metadata\\.(numdelivered|sequence\\.consumer)", Kind: "attempt"},
		// The WhatsApp Cloud API webhook: entry[].changes[].value.messages[].id.
		{Package: "whatsapp", Field: "(.*\\.)?messages\\.id", Kind: "message-id"},
	},
	Barriers: slices.Concat([]config.Pattern{
		{Package: "os", Function: "getenv|environ\\.get|environ"},
		{Package: "temporalio", Function: "workflow\\.(now|uuid4|random|info)"},
		{Package: "temporalio.workflow", Function: "now|uuid4|random|info"},
		// Rows read back: psycopg, asyncpg, SQLAlchemy, the Django ORM.
		{Function: "fetchone|fetchall|fetchmany|fetchrow|fetchval|fetch|scalar|scalars|scalar_one|scalar_one_or_none|one|one_or_none|first|objects\\..*|query\\..*\\.(first|one|get|scalar|all)|refresh_from_db|get_or_create|aget_or_create|update_or_create", Receiver: ".+"},
		// A SQLAlchemy statement: what executing it returns are rows read
		// back, whatever values its where clause compares (a cutoff
		// from the clock selects rows; it does not become their ids).
		{Package: "sqlalchemy", Function: "select|text"},
		{Package: "sqlalchemy.future", Function: "select"},
	},
		// Firestore: documents read back (a query's where("due", "<=",
		// now) selects documents; it does not become their ids).
		inPackages([]string{"google.cloud.firestore", "google.cloud.firestore_v1", "firebase_admin.firestore"},
			config.Pattern{Function: "(.*\\.)?(get|stream|get_all)"}),
	),
	Operations: slices.Concat([]config.Pattern{
		// stripe-python: stripe.Refund.create(…), and StripeClient's
		// client.refunds.create(…) / client.v1.refunds.create(…).
		// A Stripe refund without an amount refunds what remains of the
		// charge: a repeat finds nothing left and is refused
		// (charge_already_refunded), so it moves no money twice.
		{Package: "stripe", Function: "Refund\\.create(_async)?|(v1\\.)?refunds\\.create(_async)?", Field: "amount", Kind: "remainder"},
		// A PaymentIntent created without confirm=True moves no money:
		// the customer or a later confirm does, once.
		{Package: "stripe", Function: "(v1\\.)?(PaymentIntent|payment_intents)\\.create(_async)?", Field: "confirm", Kind: "unconfirmed"},
		{Package: "stripe", Function: "(" + stripePythonResources + ")\\.create(_async)?", Kind: "create"},
		{Package: "stripe", Function: "(v1\\.)?(" + stripeClientResources + ")\\.create(_async)?", Kind: "create"},
		{Package: "stripe", Function: "(v1\\.)?(PaymentIntent|Charge|payment_intents|charges)\\.capture(_async)?", Kind: "capture"},
		{Package: "stripe", Function: "(v1\\.)?(PaymentIntent|payment_intents)\\.confirm(_async)?", Kind: "confirm"},
		{Package: "stripe", Function: "(v1\\.)?(Invoice|invoices)\\.pay(_async)?", Kind: "pay"},
		{Package: "stripe", Function: "(v1\\.)?(Transfer|ApplicationFee)\\.create_(reversal|refund)(_async)?", Kind: "refund"},
		// YooKassa: the key is an argument by position (the SDK draws a
		// uuid4 per call when it is left out): Payment.create(params, key),
		// Payment.capture(id, params, key), Payment.cancel(id, key).
		// A payment the customer confirms on YooKassa's page (a
		// confirmation object, no saved payment method) moves no money
		// when created, like a checkout session; one on a saved method
		// charges at once, confirmation or not.
		{Package: "yookassa", Function: "Payment\\.create", Field: "payment_method_id", Kind: "create", Key: 2},
		{Package: "yookassa", Function: "Payment\\.create", Field: "confirmation", Kind: "harmless", Key: 2},
		{Package: "yookassa", Function: "(Payment|Payout)\\.create", Kind: "create", Key: 2},
		{Package: "yookassa", Function: "Refund\\.create", Kind: "refund", Key: 2},
		{Package: "yookassa", Function: "Payment\\.capture", Kind: "capture", Key: 3},
		// Webhook.add(params, key), Payment.cancel(id, key): keyed too, but
		// a repeat moves no money.
		{Package: "yookassa", Function: "Webhook\\.add|Payment\\.cancel", Kind: "harmless", Key: 2},
		// GoCardless (gocardless_pro): client.payments.create(params=…,
		// headers={"Idempotency-Key": key}); the SDK draws a key per
		// call when none is given.
		{Package: "gocardless_pro", Function: "(.*\\.)?(payments|instalment_schedules)\\.create", Kind: "charge"},
		{Package: "gocardless_pro", Function: "(.*\\.)?refunds\\.create", Kind: "refund"},
	},
		// aioyookassa: client.payments.create_payment(params), and the
		// older client.create_payment(…) on its YooKassa client (imported
		// from aioyookassa.core.client too); it takes no key and draws
		// an Idempotence-Key per call, so every call is keyless.
		inPackages([]string{"aioyookassa", "aioyookassa.core.client"},
			config.Pattern{Function: "(.*\\.)?(payments\\.)?create_payment", Field: "payment_method_id", Kind: "create"},
			config.Pattern{Function: "(.*\\.)?(payments\\.)?create_payment", Field: "confirmation", Kind: "harmless"},
			config.Pattern{Function: "(.*\\.)?((payments\\.)?create_payment|(payouts\\.)?create_payout)", Kind: "create"},
			config.Pattern{Function: "(.*\\.)?(refunds\\.)?create_refund", Kind: "refund"},
			config.Pattern{Function: "(.*\\.)?(payments\\.)?capture_payment", Kind: "capture"}),
		// Square (squareup; square or square.client): the key is the body's
		// idempotency_key.
		inPackages([]string{"square", "square.client"},
			config.Pattern{Function: ".*payments\\.(create|create_payment)", Kind: "charge"},
			config.Pattern{Function: ".*payments\\.(complete|complete_payment)", Kind: "capture"},
			config.Pattern{Function: ".*refunds\\.refund_payment", Kind: "refund"},
			config.Pattern{Function: ".*payouts\\.create.*|.*gift_card_activities\\.create.*", Kind: "create"}),
		[]config.Pattern{
			{Package: "logging", Function: ".*", Kind: "observe"},
			{Package: "structlog", Function: ".*", Kind: "observe"},
			{Package: "loguru", Function: ".*", Kind: "observe"},
			{Package: "sentry_sdk", Function: ".*", Kind: "observe"},
			{Package: "firebase_functions", Function: "logger\\..*", Kind: "observe"},
			// Firestore documents written on a reference of the library.
			{Package: "google.cloud.firestore", Function: "(.*\\.)?(add|set|create|update)", Receiver: ".+", Kind: "store"},
			{Package: "google.cloud.firestore_v1", Function: "(.*\\.)?(add|set|create|update)", Receiver: ".+", Kind: "store"},
			{Package: "firebase_admin.firestore", Function: "(.*\\.)?(add|set|create|update)", Receiver: ".+", Kind: "store"},
			{Package: "opentelemetry", Function: ".*", Kind: "observe"},
			{Package: "prometheus_client", Function: ".*", Kind: "observe"},
			{Package: "builtins", Function: "print|repr|isinstance|len", Kind: "observe"},
			// A logger anywhere along the chain (self.ctx.log.info(…, key=k)):
			// a log line's fields never leave as a key.
			{Function: "(.*\\.)?(logger|log|LOGGER|LOG|logging)\\..*|(.*\\.)?(debug|info|warning|warn|exception|critical)", Receiver: ".+", Kind: "observe"},
			{Function: "save|add|add_all|merge|bulk_create|insert_one|insert_many|update_one|set|setnx|hset|hsetnx|sadd|put_item", Receiver: ".+", Kind: "store"},
			// Through a repository or session held in a field
			// (self.repo.save(row), self.db.payments.insert_one(doc)).
			{Function: ".+\\.(save|bulk_create|insert_one|insert_many|update_one|put_item)", Receiver: ".+", Kind: "store"},
			// A SQLAlchemy session held anywhere, known by its declared
			// type (self.session: AsyncSession): add stages the row the
			// commit writes.
			{Package: "sqlalchemy.orm", Function: "(.*\\.)?(add|add_all|merge)", Receiver: ".+", Kind: "store"},
			{Package: "sqlalchemy.ext.asyncio", Function: "(.*\\.)?(add|add_all|merge)", Receiver: ".+", Kind: "store"},
			{Package: "sqlmodel", Function: "(.*\\.)?(add|add_all|merge)", Receiver: ".+", Kind: "store"},
			{Package: "sqlmodel.ext.asyncio.session", Function: "(.*\\.)?(add|add_all|merge)", Receiver: ".+", Kind: "store"},
			// aiogram's FSM storage (Redis or memory): a later step of the
			// dialog reads what this one stores (state.get_data()).
			{Function: "update_data|set_data", Receiver: ".+", Kind: "store"},
			// Django managers and related managers (order.events.create(…)),
			// on objects no SDK made: the key is a column of the row written.
			{Function: "(.*\\.)?(create|acreate|bulk_create|abulk_create|update|aupdate|update_or_create|aupdate_or_create)", Receiver: NoModule, Kind: "store"},
			// Response bodies: Django, DRF, Flask, FastAPI/Starlette.
			{Package: "django.http", Function: ".*Response.*", Kind: "respond"},
			{Package: "django.shortcuts", Function: "render|redirect", Kind: "respond"},
			{Package: "rest_framework.response", Function: "Response", Kind: "respond"},
			{Package: "flask", Function: "jsonify|make_response|Response|render_template", Kind: "respond"},
			{Package: "fastapi.responses", Function: ".*", Kind: "respond"},
			{Package: "starlette.responses", Function: ".*", Kind: "respond"},
		}),
	Inserts: []config.Pattern{
		{Function: "objects\\.create|objects\\.acreate", Receiver: ".+"},
	},
	Records: []config.Pattern{
		// stripe.Payout.create(…), client.payouts.create(…).
		{Function: "(.*\\.)?(create|create_async|modify|modify_async|update|update_async|capture|capture_async|confirm|confirm_async)", Receiver: "-"},
		{Function: "(.*\\.)?(create|create_async|modify|modify_async|update|update_async|capture|capture_async|confirm|confirm_async)", Receiver: ModuleObject},
	},
	Entries: []config.Pattern{
		{Function: "(.*\\.)?(route|get|post|put|patch|delete|api_route|websocket)", Kind: "route"},
		{Function: "(.*\\.)?(task|shared_task|actor|periodic_task)", Kind: "consumer"},
		// Scheduled jobs (APScheduler's add_job and scheduled_job): the
		// next run does again what a crashed one left half done.
		{Function: "(.*\\.)?(add_job|scheduled_job)", Kind: "consumer"},
		{Function: "(.*\\.)?(add_url_rule)", Kind: "route"},
		{Function: "(.*\\.)?(basic_consume|consume|subscribe|add_consumer|on_message|iterator)", Kind: "consumer"},
		// Run by hand from a command line: Django's management commands
		// (a class on BaseCommand) and click's commands.
		{Function: "(.*\\.)?BaseCommand|click\\.(command|group)", Kind: "script"},
		// Class-based views, by the module their base comes from: the
		// framework routes each request to a method (DRF's viewsets and
		// generic views, Django's and Flask's views, Starlette endpoints).
		{Package: "rest_framework.views", Function: ".+", Kind: "route"},
		{Package: "rest_framework.generics", Function: ".+", Kind: "route"},
		{Package: "rest_framework.viewsets", Function: ".+", Kind: "route"},
		{Package: "django.views", Function: ".+", Kind: "route"},
		{Package: "flask.views", Function: ".+", Kind: "route"},
		{Package: "starlette.endpoints", Function: ".+", Kind: "route"},
		// A DRF serializer's create and update run when a view saves it
		// (serializer.save() in perform_create), inside the request.
		{Package: "rest_framework.serializers", Function: ".+", Kind: "route"},
		// Django's admin: a ModelAdmin's methods and actions run for a
		// staff member's request. Known by the base, by @admin.action, or
		// by @admin.register on a class whose base the analysis cannot see
		// (a third-party ModelAdmin).
		{Package: "django.contrib.admin", Function: ".+", Kind: "route"},
		{Package: "django.contrib.admin", Function: "action|display|register", Receiver: "-", Kind: "route"},
		// Registered by a function the framework's module gives, whatever
		// the path looks like (Receiver "-": a function, not a base):
		// Django's urlpatterns.
		{Package: "django.urls", Function: "path|re_path", Receiver: "-", Kind: "route"},
		{Package: "django.conf.urls", Function: "url", Receiver: "-", Kind: "route"},
		// Cloud Functions for Firebase: a callable or HTTPS function
		// answers a request; a scheduled, Firestore, Pub/Sub or task
		// trigger is an event the platform delivers at least once and
		// retries.
		{Package: "firebase_functions", Function: "https_fn\\.(on_call|on_request)", Receiver: "-", Kind: "route"},
		{Package: "firebase_functions", Function: "\\w+_fn\\.on_\\w+", Receiver: "-", Kind: "consumer"},
		// A polling consumer: the function that calls a client's read of a broker (SQS,
		// Kafka, a RabbitMQ get, a Redis stream or list) handles what a
		// redelivery brings again.
		{Function: ".+\\.(receive_message|receive_messages|basic_get|xreadgroup|brpop|blpop|brpoplpush|blmove|poll|pull)", Kind: "receive"},
	},
	Requests: []config.Pattern{
		{Package: "flask", Function: "Request"},
		{Package: "starlette.requests", Function: "Request"},
		{Package: "fastapi", Function: "Request"},
		{Package: "django.http", Function: "HttpRequest"},
	},
	Endpoints: providerEndpoints,
	Forwarders: []config.Pattern{
		{Package: "asyncio", Function: "to_thread", Key: 1},
		{Function: "(.*\\.)?run_in_executor", Receiver: ".+", Key: 2},
		{Package: "anyio", Function: "to_thread\\.run_sync", Key: 1},
		{Package: "anyio.to_thread", Function: "run_sync", Key: 1},
		{Package: "starlette.concurrency", Function: "run_in_threadpool", Key: 1},
		{Package: "fastapi.concurrency", Function: "run_in_threadpool", Key: 1},
	},
	Retries: []config.Pattern{
		{Package: "tenacity", Function: "retry|Retrying|AsyncRetrying"},
		{Package: "backoff", Function: "on_exception|on_predicate"},
		{Package: "retrying", Function: "retry|Retrying"},
		{Package: "stamina", Function: "retry"},
		{Package: "retry", Function: "retry|retry_call"},
	},
	Webhooks: slices.Concat(
		[]config.Pattern{{Package: "stripe", Function: "(Webhook\\.)?construct_event|WebhookSignature\\.verify_header"}},
		// Standard Webhooks and its Svix original: the verifier is also
		// imported from the webhooks module itself.
		inPackages([]string{"svix", "standardwebhooks"}, config.Pattern{Function: "(webhooks\\.)?(Webhook\\.)?verify"}),
		inPackages([]string{"svix.webhooks", "standardwebhooks.webhooks"}, config.Pattern{Function: "(Webhook\\.)?verify"}),
	),
}

// providerEndpoints are the providers' HTTP APIs, called the same way from
// any language. As for YooKassa's SDK, a payment on a saved method
// charges at once, confirmation or not.
var providerEndpoints = []config.Pattern{
	{Package: "http", Function: "(https://api\\.yookassa\\.ru/v3|…)/payments/?", Field: "payment_method_id", Kind: "create"},
	{Package: "http", Function: "(https://api\\.yookassa\\.ru/v3|…)/payments/?", Field: "confirmation", Kind: "harmless"},
	// Mercado Pago's capture of an authorized payment (PUT
	// /v1/payments/{id} with capture: true): it acts on a payment that
	// exists, once; a repeat is refused, whatever its key.
	{Package: "http", Function: "(https://api\\.mercadopago\\.com/v1|…)/payments/[^/?]+", Field: "capture", Kind: "harmless"},
	// Paystack's transaction initialize opens a checkout page the payer
	// completes; nothing is charged when it is created (as a Stripe
	// checkout session).
	{Package: "http", Function: "(https://api\\.paystack\\.co|…)/transaction/initialize/?", Kind: "harmless"},
	// PayPal's order create: the buyer approves the order and its capture
	// is a call of its own, so nothing moves when it is created; one
	// paid with a payment_source (a vaulted card) can complete at once.
	{Package: "http", Function: "(https://api(-m)?(\\.sandbox)?\\.paypal\\.com|…)/v2/checkout/orders/?", Field: "payment_source", Kind: "create"},
	{Package: "http", Function: "(https://api(-m)?(\\.sandbox)?\\.paypal\\.com|…)/v2/checkout/orders/?", Kind: "harmless"},
	// Circle: registering a bank account or a card moves no money.
	{Package: "http", Function: "(https://api(-sandbox)?\\.circle\\.com/v1|…)/(banks/(wires|ach|sepa)|cards)/?", Kind: "harmless"},
}

var typescriptTables = Tables{
	Sources: []config.Pattern{
		{Package: "crypto", Function: "randomUUID|randomBytes|randomInt|webcrypto\\.randomUUID", Kind: "random"},
		{Package: "globalThis", Function: "crypto\\.randomUUID|Math\\.random", Kind: "random"},
		// These fill the buffer passed (and return it).
		{Package: "crypto", Function: "(webcrypto\\.)?getRandomValues|randomFillSync|randomFill", Kind: "random", Fills: 1},
		{Package: "globalThis", Function: "crypto\\.getRandomValues", Kind: "random", Fills: 1},
		{Package: "globalThis", Function: "Date\\.now|performance\\.now|Date", Kind: "clock"},
		{Package: "perf_hooks", Function: "performance\\.now", Kind: "clock"},
		{Package: "uuid", Function: "v1|v4|v6|v7|uuidv4|uuidv7", Kind: "random"},
		{Package: "nanoid", Function: "nanoid|customAlphabet|customRandom", Kind: "random"},
		{Package: "nanoid/non-secure", Function: ".*", Kind: "random"},
		{Package: "cuid", Function: ".*", Kind: "random"},
		{Package: "@paralleldrive/cuid2", Function: "createId|init", Kind: "random"},
		{Package: "ulid", Function: "ulid|monotonicFactory|factory", Kind: "random"},
		{Package: "ulidx", Function: "ulid|monotonicFactory|factory", Kind: "random"},
		{Package: "ksuid", Function: ".*", Kind: "random"},
		{Package: "short-uuid", Function: ".*", Kind: "random"},
		{Package: "openai", Function: ".*(create|parse|stream)", Kind: "model"},
		{Package: "@anthropic-ai/sdk", Function: ".*(create|stream)", Kind: "model"},
	},
	Transport: []config.Pattern{
		// amqplib's channel.consume(queue, (msg) => …).
		{Package: "amqplib", Field: "(.*\\.)?properties\\.messageid", Kind: "message-id"},
		{Package: "amqplib", Field: "(.*\\.)?fields\\.(deliverytag|redelivered)", Kind: "attempt"},
		{Package: "amqplib", Field: "(.*\\.)?properties\\.headers\\.xdeliverycount", Kind: "attempt"},
		// NATS JetStream.
		{Package: "nats", Field: "(.*\\.)?info\\.(redeliverycount|deliverycount|redelivered)", Kind: "attempt"},
		{Package: "nats", Field: "redelivered", Receiver: ConsumerOnly, Kind: "attempt"},
		// BullMQ's Worker processor (job).
		{Package: "bullmq", Field: "attemptsmade|attemptsstarted", Receiver: ConsumerOnly, Kind: "attempt"},
		// SQS ReceiveMessage results.
		{Package: "@aws-sdk/client-sqs", Field: "(.*\\.)?messages\\.messageid", Kind: "message-id"},
		{Package: "@aws-sdk/client-sqs", Field: "(.*\\.)?receipthandle", Kind: "attempt"},
		// kafkajs's eachMessage({ message }).
		{Package: "kafkajs", Field: "(.*\\.)?message\\.offset|offset", Receiver: ConsumerOnly, Kind: "message-id"},
		{Package: "whatsapp", Field: "(.*\\.)?messages\\.id", Kind: "message-id"},
	},
	Barriers: slices.Concat([]config.Pattern{
		{Package: "@temporalio/workflow", Function: "uuid4|workflowInfo"},
		// A browser component's state: what useRef or useState was first
		// given is kept for every later render and click, so a key drawn
		// there is one per mount, which the user's retry reuses.
		{Package: "react", Function: "(React\\.)?(useRef|useState|useMemo)"},
		{Package: "process", Function: "env.*"},
		// Rows read back: pg, knex, Prisma, TypeORM, drizzle.
		{Function: "first|pluck|findOne|findOneBy|findOneOrFail|findOneByOrFail|findBy|findUnique.*|findFirst.*|findOrCreate|upsert|select|selectDistinct|oneOrNone|one|many|manyOrNone|any", Receiver: ".+"},
		// The same through a repository held in a field (NestJS's
		// this.payouts.find({ where: { createdAt: LessThan(new Date()) } })),
		// and TypeORM's query builder: rows read back, whatever their
		// filter compares.
		{Function: ".+\\.(find|findAndCount|findOne|findOneBy|findOneOrFail|findOneByOrFail|findBy|findUnique.*|findFirst.*|findMany|findOrCreate|oneOrNone|manyOrNone)", Receiver: ".+"},
		{Function: "(.*\\.)?(getMany|getOne|getOneOrFail|getRawMany|getRawOne|getManyAndCount)", Receiver: ".+"},
		{Package: "@prisma/client", Function: ".*\\.(find.*|upsert|count|aggregate)"},
		// Firestore: documents read back, whatever a query's where()
		// compares them with (the client SDK here, the admin SDKs below).
		{Package: "firebase/firestore", Function: "getDocs?|getDocsFromServer|getDocFromServer|getCountFromServer"},
		// Mongoose models: documents read back.
		{Package: "mongoose", Function: "(.*\\.)?(find|findById|findOne.*|aggregate|countDocuments|exists|distinct)"},
	},
		// The admin SDKs' Firestore: a query's or a document's get().
		inPackages([]string{"firebase-admin/...", "@google-cloud/firestore"}, config.Pattern{Function: "(.*\\.)?(get|getAll)"}),
	),
	Operations: []config.Pattern{
		// stripe-node: stripe.refunds.create(params, { idempotencyKey }).
		// A refund without an amount refunds what remains (see Python's).
		{Package: "stripe", Function: "(v1\\.)?refunds\\.create", Field: "amount", Kind: "remainder"},
		{Package: "stripe", Function: "(v1\\.)?paymentIntents\\.create", Field: "confirm", Kind: "unconfirmed"},
		{Package: "stripe", Function: "(v1\\.)?(" + stripeNodeResources + ")\\.create", Kind: "create"},
		{Package: "stripe", Function: "(v1\\.)?(paymentIntents|charges)\\.capture", Kind: "capture"},
		{Package: "stripe", Function: "(v1\\.)?paymentIntents\\.confirm", Kind: "confirm"},
		{Package: "stripe", Function: "(v1\\.)?invoices\\.pay", Kind: "pay"},
		{Package: "stripe", Function: "(v1\\.)?(transfers\\.createReversal|applicationFees\\.createRefund)", Kind: "refund"},
		// Square: the key is the request's idempotencyKey; the new SDK's
		// client.payments.create and the legacy paymentsApi.createPayment.
		{Package: "square", Function: "(.*\\.)?(payments\\.create|paymentsApi\\.createPayment)", Kind: "charge"},
		{Package: "square", Function: "(.*\\.)?(payments\\.complete|paymentsApi\\.completePayment)", Kind: "capture"},
		{Package: "square", Function: "(.*\\.)?(refunds|refundsApi)\\.refundPayment", Kind: "refund"},
		// GoCardless (gocardless-nodejs): client.payments.create(params,
		// idempotencyKey), the key by position.
		{Package: "gocardless-nodejs", Function: "(.*\\.)?(payments|instalmentSchedules)\\.create", Kind: "charge", Key: 2},
		{Package: "gocardless-nodejs", Function: "(.*\\.)?refunds\\.create", Kind: "refund", Key: 2},
		// YooKassa (@a2seven/yoo-checkout): the key is an argument by
		// position, createPayment(payload, idempotenceKey).
		{Package: "@a2seven/yoo-checkout", Function: "(.*\\.)?createPayment", Field: "payment_method_id", Kind: "create", Key: 2},
		{Package: "@a2seven/yoo-checkout", Function: "(.*\\.)?createPayment", Field: "confirmation", Kind: "harmless", Key: 2},
		{Package: "@a2seven/yoo-checkout", Function: "(.*\\.)?createPayment", Kind: "create", Key: 2},
		{Package: "@a2seven/yoo-checkout", Function: "(.*\\.)?createRefund", Kind: "refund", Key: 2},
		{Package: "@a2seven/yoo-checkout", Function: "(.*\\.)?capturePayment", Kind: "capture", Key: 3},
		// Schema libraries: a schema is no data; parse returns what it
		// was given, validated (a min(new Date()) bound is no clock
		// reading in the form's values).
		{Package: "zod", Function: ".*", Kind: "validate"},
		{Package: "yup", Function: ".*", Kind: "validate"},
		{Package: "joi", Function: ".*", Kind: "validate"},
		{Package: "valibot", Function: ".*", Kind: "validate"},
		{Package: "superstruct", Function: ".*", Kind: "validate"},
		{Package: "@sinclair/typebox/...", Function: ".*", Kind: "validate"},
		{Package: "globalThis", Function: "(console|logger|log)\\..*", Kind: "observe"},
		{Package: "pino", Function: ".*", Kind: "observe"},
		{Package: "winston", Function: ".*", Kind: "observe"},
		{Package: "bunyan", Function: ".*", Kind: "observe"},
		{Package: "debug", Function: ".*", Kind: "observe"},
		{Package: "@sentry/...", Function: ".*", Kind: "observe"},
		{Package: "@opentelemetry/...", Function: ".*", Kind: "observe"},
		{Package: "prom-client", Function: ".*", Kind: "observe"},
		{Package: "log4js", Function: ".*", Kind: "observe"},
		{Package: "consola", Function: ".*", Kind: "observe"},
		{Package: "loglevel", Function: ".*", Kind: "observe"},
		{Package: "@aws-lambda-powertools/logger", Function: ".*", Kind: "observe"},
		{Package: "@google-cloud/logging", Function: ".*", Kind: "observe"},
		// Cloud Functions for Firebase's logger, as a module
		// (firebase-functions/logger) or a member (functions.logger.info).
		{Package: "firebase-functions/logger", Function: ".*", Kind: "observe"},
		{Package: "firebase-functions/...", Function: "(.*\\.)?logger\\..*", Kind: "observe"},
		{Function: "(logger|log|console)\\..*|debug|info|warn|warning|trace", Receiver: ".+", Kind: "observe"},
		{Function: "save|insert|values|persist|set|setnx|hset|hsetnx|sadd|insertOne|insertMany|updateOne", Receiver: ".+", Kind: "store"},
		// The same writes through a repository held in a field
		// (this.bookings.save(entity), NestJS's injected TypeORM
		// repository): what they return is the row written, read back.
		{Function: ".+\\.(save|insert|persist|insertOne|insertMany|updateOne)", Receiver: ".+", Kind: "store"},
		// An ORM's write by its shape, on a client not followed (a
		// Prisma client handed in): model.create({ data: { … } }).
		{Function: "(.*\\.)?(create|createMany|update|updateMany|upsert)", Field: "data|create", Receiver: ".+", Kind: "store"},
		// TypeORM's repository: create builds in memory the entity that
		// save writes (this.payouts.save(this.payouts.create({
		// idempotencyKey }))): an object, not a request ("build").
		{Package: "typeorm", Function: "(.*\\.)?(create|merge)", Receiver: ".+", Kind: "build"},
		// Firestore: a document added, set, created or updated, by the
		// client SDK's functions or on an admin SDK's reference (known by
		// the library it comes from).
		{Package: "firebase/firestore", Function: "addDoc|setDoc|updateDoc", Kind: "store"},
		{Package: "firebase-admin/...", Function: "(.*\\.)?(add|set|create|update)", Receiver: ".+", Kind: "store"},
		{Package: "@google-cloud/firestore", Function: "(.*\\.)?(add|set|create|update)", Receiver: ".+", Kind: "store"},
		// Express/Fastify/Koa response writers on the handler's response
		// parameter: res.status(201).json({…}), reply.send(…).
		{Function: "status|json|jsonp|send|sendStatus|render|end|code", Receiver: NoModule, Kind: "respond"},
	},
	Inserts: []config.Pattern{
		{Package: "@prisma/client", Function: ".*\\.create(Many)?"},
	},
	Records: []config.Pattern{
		// stripe.payouts.create(…), prisma.invoice.update(…).
		{Function: "(.*\\.)?(create|update|updateMany|upsert|capture|confirm)", Receiver: ModuleObject},
		// The same through a client a project module exports, when the
		// import is not followed: a resource path before the verb, so
		// axios.create(config) is not a record.
		{Function: ".+\\.(create|update|updateMany|upsert|capture|confirm)", Receiver: "-"},
	},
	Entries: []config.Pattern{
		{Function: "(.*\\.)?(get|post|put|patch|delete|all|route|use)", Kind: "route"},
		// A controller method's route decorator: NestJS, tsoa,
		// routing-controllers (@Post("/pay")).
		{Function: "Get|Post|Put|Patch|Delete|All|Head|Options", Kind: "route"},
		// tRPC: procedure.input(…).mutation(resolver) answers an HTTP
		// request ("procedure": a route registered without a path).
		{Function: ".+\\.mutation", Kind: "procedure"},
		// GraphQL resolver maps: { Mutation: { addCredit, … } } (a field
		// entry: the members of that object literal are handlers).
		{Field: "Mutation|Query", Kind: "route"},
		{Function: "(.*\\.)?(consume|subscribe|process|run|Worker|eachMessage|on)", Kind: "consumer"},
		// Scheduled jobs: node-cron, cron's CronJob, node-schedule, a
		// timer. The next tick does again what a crashed one left half
		// done.
		{Package: "node-cron", Function: "schedule", Receiver: "-", Kind: "consumer"},
		{Package: "cron", Function: "CronJob|CronJob\\.from", Receiver: "-", Kind: "consumer"},
		{Package: "node-schedule", Function: "scheduleJob", Receiver: "-", Kind: "consumer"},
		{Package: "globalThis", Function: "setInterval", Receiver: "-", Kind: "consumer"},
		// Cloud Functions for Firebase: a callable or HTTPS function
		// answers a request; a scheduled, Firestore, Pub/Sub or task
		// trigger (v1's .onRun, .onCreate, …; v2's onSchedule,
		// onDocumentCreated, …) is an event the platform delivers at
		// least once and retries.
		{Package: "firebase-functions/...", Function: "(.*\\.)?(onCall|onRequest|onCallGenkit)", Receiver: "-", Kind: "route"},
		{Package: "firebase-functions/...", Function: "(.*\\.)?on[A-Z]\\w*", Receiver: "-", Kind: "consumer"},
		// A QStash job: @upstash/qstash's wrappers verify the signature
		// and QStash retries the handler until it answers 2xx.
		{Function: "verifySignature(AppRouter|Edge)?", Kind: "consumer"},
		// A polling consumer, as in Python: SQS (v3's command, v2's
		// method), a RabbitMQ get, a Redis stream or list.
		{Function: "(.*\\.)?ReceiveMessageCommand|.+\\.(receiveMessage|xreadgroup|brpop|blpop|brpoplpush|blmove)", Kind: "receive"},
	},
	Requests: []config.Pattern{
		{Package: "express", Function: "Request"},
		{Package: "fastify", Function: "FastifyRequest"},
		{Package: "koa", Function: "Context|Request|ParameterizedContext"},
		{Package: "next/server", Function: "NextRequest"},
	},
	Endpoints: providerEndpoints,
	Retries: []config.Pattern{
		// Default exports: pRetry(fn), retry(fn) and promiseRetry(fn) are
		// the module itself.
		{Package: "p-retry", Function: ".*"},
		{Package: "async-retry", Function: ".*"},
		{Package: "promise-retry", Function: ".*"},
		{Package: "exponential-backoff", Function: "backOff"},
		{Package: "ts-retry-promise", Function: "retry|retryDecorator"},
		{Package: "@lifeomic/attempt", Function: "retry"},
	},
	Webhooks: []config.Pattern{
		{Package: "stripe", Function: "webhooks\\.(constructEvent|constructEventAsync)"},
		{Package: "svix", Function: "verify"},
		{Package: "standardwebhooks", Function: "verify"},
		{Package: "@upstash/qstash", Function: "verify"},
	},
}

var (
	langOnce     sync.Once
	langDefaults map[string]Tables
)

func builtinTables() map[string]Tables {
	langOnce.Do(func() {
		langDefaults = map[string]Tables{"python": compileTables(pythonTables), "typescript": compileTables(typescriptTables)}
	})
	return langDefaults
}

func compileTables(t Tables) Tables {
	for _, list := range [][]config.Pattern{t.Sources, t.Transport, t.Barriers, t.Operations, t.Inserts, t.Entries, t.Records, t.Webhooks, t.Retries, t.Endpoints, t.Requests, t.Forwarders} {
		mustCompileList(list)
	}
	return t
}

func mustCompileList(list []config.Pattern) {
	for i := range list {
		if err := list[i].Compile(); err != nil {
			panic(err)
		}
	}
}

// inPackages is ps once for each of pkgs: one SDK whose operations are
// imported from its root and from a submodule.
func inPackages(pkgs []string, ps ...config.Pattern) []config.Pattern {
	var out []config.Pattern
	for _, pkg := range pkgs {
		for _, p := range ps {
			p.Package = pkg
			out = append(out, p)
		}
	}
	return out
}

// Languages are the languages other than Go that have tables.
var Languages = []string{"python", "typescript"}

// Lang returns the tables of a language other than Go ("python",
// "typescript"): the built-in ones extended by the configuration's
// entries with that language (first, so they override built-in ones).
func (m *Model) Lang(lang string) Tables {
	t := builtinTables()[lang]
	if m.Config == nil {
		return t
	}
	pick := func(ps []config.Pattern) []config.Pattern {
		var out []config.Pattern
		for _, p := range ps {
			if p.Language == lang {
				out = append(out, p)
			}
		}
		return out
	}
	t.Sources = append(pick(m.Config.Sources), t.Sources...)
	t.Barriers = append(pick(m.Config.Barriers), t.Barriers...)
	t.Operations = append(pick(m.Config.Operations), t.Operations...)
	for _, p := range pick(m.Config.Sources) {
		if p.Field != "" {
			t.Transport = append([]config.Pattern{p}, t.Transport...)
		}
	}
	return t
}

// goOnly drops configured entries meant for another language.
func goOnly(ps []config.Pattern) []config.Pattern {
	var out []config.Pattern
	for _, p := range ps {
		if p.Language == "" || p.Language == "go" {
			out = append(out, p)
		}
	}
	return out
}

// testFrameworks are the modules whose import makes a file test support:
// shared fixtures and base classes that live outside test directories
// (app/payin/test_integration/processors/cart_payment_test_base.py imports
// pytest). Such a file is skipped unless --tests, as a test file is.
var testFrameworks = map[string][]string{
	// Load generators too (locust, k6, autocannon): a load test draws a
	// key per request on purpose, and is no handler.
	"python":     {"pytest", "_pytest", "unittest", "hypothesis", "pytest_asyncio", "pytest_mock", "locust"},
	"typescript": {"jest", "@jest/globals", "vitest", "bun:test", "mocha", "chai", "sinon", "node:test", "@playwright/test", "supertest", "ava", "tap", "cypress", "k6", "autocannon"},
}

// IsTestFramework reports whether importing module (as written, "pytest",
// "unittest.mock", "@testing-library/react") marks a file of lang as test
// support.
func IsTestFramework(lang, module string) bool {
	if lang == "typescript" && (strings.HasPrefix(module, "@testing-library/") || strings.HasPrefix(module, "k6/")) {
		return true
	}
	for _, m := range testFrameworks[lang] {
		if module == m || lang == "python" && strings.HasPrefix(module, m+".") {
			return true
		}
	}
	return false
}
