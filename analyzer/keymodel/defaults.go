package keymodel

import (
	"sync"

	"github.com/idemcheck/idemcheck/analyzer/config"
)

// builtin is the built-in model, as data. Package paths ending in "/..."
// cover sub-packages (and so every major version of a module); Function,
// Receiver and Field are anchored regular expressions; Receiver "-" means
// package-level functions only.
var builtin = config.Config{
	Sources: []config.Pattern{
		// The roots: the clock and the entropy source. Functions built on
		// them (uuid, ulid, ksuid, xid, snowflake, nanoid, prefix helpers)
		// are inferred when their package is analyzed; the libraries below
		// are listed as well for when it is not (golangci-lint without
		// facts, stubbed dependencies).
		{Package: "time", Function: "Now|Since|Until", Receiver: "-", Kind: "clock"},
		{Package: "crypto/rand", Function: "Read", Receiver: "-", Kind: "random", Fills: 1},
		{Package: "crypto/rand", Function: "Int|Prime|Text", Kind: "random"},
		{Package: "math/rand", Function: "Read", Kind: "random", Fills: 1},
		{Package: "math/rand", Function: "(Int|Uint|Float|ExpFloat|NormFloat).*|Perm", Kind: "random"},
		{Package: "math/rand/v2", Function: "(Int|Uint|Float|ExpFloat|NormFloat).*|N|Perm", Kind: "random"},

		// Atomic counters: each Add returns the next number.
		{Package: "sync/atomic", Function: "Add.*", Kind: "counter"},

		{Package: "github.com/google/uuid", Function: "New|NewString|NewRandom|NewV7|NewV6|NewUUID|NewRandomFromReader|NewV7FromReader|NewDCEPerson|NewDCEGroup|NewDCESecurity|NewV4", Receiver: "-", Kind: "random"},
		{Package: "github.com/gofrs/uuid/...", Function: "NewV1|NewV2|NewV4|NewV6|NewV7|Must1", Kind: "random"},
		{Package: "github.com/satori/go.uuid", Function: "NewV1|NewV2|NewV4|NewV6|NewV7|Must1", Kind: "random"},
		{Package: "github.com/oklog/ulid/...", Function: "Make|New|MustNew|MustNewDefault|Now", Receiver: "-", Kind: "random"},
		{Package: "github.com/rs/xid", Function: "New|NewWithTime", Receiver: "-", Kind: "random"},
		{Package: "github.com/segmentio/ksuid", Function: "New|NewRandom|NewRandomWithTime", Receiver: "-", Kind: "random"},
		{Package: "github.com/lithammer/shortuuid/...", Function: "New.*|Generate|Must|MustGenerate", Kind: "random"},
		{Package: "github.com/teris-io/shortid/...", Function: "New.*|Generate|Must|MustGenerate", Kind: "random"},
		{Package: "github.com/matoous/go-nanoid/...", Function: "New.*|Generate|Must|MustGenerate", Kind: "random"},
		{Package: "github.com/jaevor/go-nanoid/...", Function: "New.*|Generate|Must|MustGenerate", Kind: "random"},
		{Package: "github.com/bwmarrin/snowflake", Function: "Generate", Kind: "counter"},
		{Package: "github.com/sony/sonyflake/...", Function: "NextID", Kind: "counter"},
		{Package: "github.com/stripe/stripe-go/...", Function: "NewIdempotencyKey", Kind: "random"},

		// Redelivery metadata the broker sets, read from the transport
		// envelope: it changes on every delivery of the same message. A
		// counter of the same name decoded from the message body does not
		// (names are never evidence).
		{Package: "github.com/rabbitmq/amqp091-go", Field: "Redelivered|DeliveryTag", Kind: "attempt"},
		{Package: "github.com/streadway/amqp", Field: "Redelivered|DeliveryTag", Kind: "attempt"},
		{Package: "github.com/aws/aws-sdk-go-v2/service/sqs/types", Field: "ReceiptHandle", Kind: "attempt"},
		{Package: "github.com/aws/aws-sdk-go/service/sqs", Field: "ReceiptHandle", Kind: "attempt"},
		{Package: "github.com/nats-io/nats.go/...", Field: "NumDelivered", Kind: "attempt"},
		{Package: "cloud.google.com/go/pubsub/...", Field: "DeliveryAttempt", Kind: "attempt"},
		{Package: "github.com/riverqueue/river/...", Field: "Attempt|AttemptedAt", Kind: "attempt"},
		{Package: "go.temporal.io/sdk/activity", Field: "Attempt", Kind: "attempt"},
		{Package: "github.com/hibiken/asynq", Function: "GetRetryCount", Receiver: "-", Kind: "attempt"},
	},
	Barriers: []config.Pattern{
		{Package: "os", Function: "Getenv|LookupEnv|ReadFile", Receiver: "-"},
		// Rows read back from the database.
		{Function: "Scan|ScanRow|ScanRows|StructScan|MapScan|SliceScan|ScanStruct|ScanAll|ScanOne", Receiver: ".+"},
		{Package: "github.com/georgysavva/scany/...", Function: "Scan.*|Get|Select|GetContext|SelectContext"},
		{Package: "github.com/jmoiron/sqlx", Function: "Get|Select|GetContext|SelectContext|StructScan|MapScan|SliceScan"},
		{Package: "github.com/jackc/pgx/...", Function: "Collect.*|RowTo.*|ForEachRow|Values|RawValues|ScanRow"},
		// A record looked up by its key (GetByIdempotencyKey) is stored
		// state read back: neither a key nor an attempt counter.
		{Function: "(Get|Find|Load|Fetch|Lookup|Read|Select|Query)[A-Za-z0-9_]*(By|_by_)(Idempoten|Idem|idempoten|idem|Dedup|dedup)[A-Za-z0-9_]*"},
		// Replay-stable workflow APIs: a replayed workflow sees the value
		// recorded in its history, not a new one.
		{Package: "go.temporal.io/sdk/workflow", Function: "Now|SideEffect|MutableSideEffect|GetInfo|GetVersion|NewTimer", Receiver: "-"},
		{Package: "go.uber.org/cadence/workflow", Function: "Now|SideEffect|MutableSideEffect|GetInfo|GetVersion|NewTimer", Receiver: "-"},
	},
	Sinks: []config.Pattern{
		{Package: "github.com/stripe/...", Field: "IdempotencyKey"},
		{Package: "github.com/stripe/...", Function: "SetIdempotencyKey"},
		{Package: "github.com/aws/aws-sdk-go-v2/...", Field: "ClientToken|IdempotencyToken|ClientRequestToken|CallerReference|MessageDeduplicationId"},
		{Package: "github.com/aws/aws-sdk-go/...", Field: "ClientToken|IdempotencyToken|ClientRequestToken|CallerReference|MessageDeduplicationId"},
		// A publish's deduplication id: JetStream drops a message whose id
		// it has seen within the window.
		{Package: "github.com/nats-io/nats.go", Function: "MsgId", Receiver: "-"},
		{Package: "github.com/nats-io/nats.go/jetstream", Function: "WithMsgID", Receiver: "-"},
		// asynq refuses a second task with an id it holds: the task id
		// deduplicates the enqueue.
		{Package: "github.com/hibiken/asynq", Function: "TaskID", Receiver: "-"},
	},
	Operations: []config.Pattern{
		// Logging, metrics, tracing and error values: a key passed to
		// them goes nowhere an effect could repeat, so they are never
		// sinks, whatever the field they put it in is called
		// (zap.String("idempotency_key", k)).
		{Package: "log", Function: ".*", Kind: "observe"},
		{Package: "log/slog", Function: ".*", Kind: "observe"},
		{Package: "fmt", Function: "Errorf", Kind: "observe"},
		{Package: "errors", Function: ".*", Kind: "observe"},
		{Package: "github.com/pkg/errors", Function: ".*", Kind: "observe"},
		{Package: "go.uber.org/zap/...", Function: ".*", Kind: "observe"},
		{Package: "github.com/sirupsen/logrus", Function: ".*", Kind: "observe"},
		{Package: "github.com/rs/zerolog/...", Function: ".*", Kind: "observe"},
		{Package: "github.com/go-logr/logr/...", Function: ".*", Kind: "observe"},
		{Package: "k8s.io/klog/...", Function: ".*", Kind: "observe"},
		{Package: "github.com/charmbracelet/log", Function: ".*", Kind: "observe"},
		{Package: "go.opentelemetry.io/...", Function: ".*", Kind: "observe"},
		{Package: "github.com/opentracing/...", Function: ".*", Kind: "observe"},
		{Package: "github.com/prometheus/...", Function: ".*", Kind: "observe"},
		{Package: "github.com/DataDog/...", Function: ".*", Kind: "observe"},
		{Package: "gopkg.in/DataDog/...", Function: ".*", Kind: "observe"},
		{Package: "github.com/getsentry/sentry-go/...", Function: ".*", Kind: "observe"},
		{Package: "github.com/newrelic/...", Function: ".*", Kind: "observe"},
		// The answer to the request being served: a key echoed back to
		// the client goes nowhere an effect could repeat.
		{Package: "github.com/labstack/echo/...", Function: "JSON.*|XML.*|String|HTML.*|Blob|Stream|Render|NoContent|Redirect", Kind: "observe"},
		{Package: "github.com/gin-gonic/gin", Function: ".*JSON|XML|YAML|TOML|ProtoBuf|String|HTML|Data|Render|Redirect|AbortWithStatusJSON|Header", Kind: "observe"},
		{Package: "github.com/gofiber/fiber/...", Function: "JSON|JSONP|XML|Send|SendString|Render|Format|Set", Receiver: "Ctx", Kind: "observe"},
		{Package: "github.com/go-chi/render", Function: ".*", Kind: "observe"},
		{Package: "net/http", Function: "Error", Kind: "observe"},
		// Database writes: a key passed to one is stored (IDEM001 counts a
		// key as persisted when such a write runs before it is used).
		{Function: "Exec|ExecContext|Query|QueryContext|QueryRow|QueryRowContext|NamedExec|NamedExecContext|NamedQuery|NamedQueryContext|Queue|CopyFrom|SendBatch|MustExec|MustExecContext|QueryRowx|Queryx|SetNX|SetNx|HSetNX|SAdd|PutItem|TransactWriteItems", Receiver: ".+", Kind: "store"},
		{Package: "gorm.io/gorm", Function: "Create|Save|CreateInBatches|FirstOrCreate", Kind: "store"},
		{Package: "go.mongodb.org/mongo-driver/...", Function: "InsertOne|InsertMany|UpdateOne|ReplaceOne|FindOneAndUpdate", Kind: "store"},
		{Package: "github.com/redis/go-redis/...", Function: "Set|SetNX|HSet|HSetNX|SAdd", Kind: "store"},
		// stripe-go (package functions like paymentintent.New and the
		// client's services like sc.V1PaymentIntents.Create).
		// Creates are judged by effect: those that move money or create a
		// billable object act; a checkout or portal session, a webhook
		// endpoint, an account link, a customer or a product is harmless
		// to repeat (a spare object, nothing charged).
		// A PaymentIntent created without Confirm moves no money: the
		// customer, or one later confirm, charges it (a condition on the
		// create below it, not a kind of its own).
		{Package: "github.com/stripe/stripe-go/*/paymentintent", Function: "New|Create.*", Field: "Confirm", Kind: "unconfirmed"},
		{Package: "github.com/stripe/stripe-go/...", Receiver: "v1PaymentIntentService", Function: "New|Create.*", Field: "Confirm", Kind: "unconfirmed"},
		{Package: "github.com/stripe/stripe-go/*/charge", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/*/paymentintent", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/*/transfer", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/*/transferreversal", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/*/payout", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/*/refund", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/*/feerefund", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/*/invoice", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/*/invoiceitem", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/*/creditnote", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/*/subscription", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/*/subscriptionitem", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/*/subscriptionschedule", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/*/topup", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/...", Receiver: "v1(Charge|PaymentIntent|Transfer|TransferReversal|Payout|Refund|FeeRefund|Invoice|InvoiceItem|CreditNote|Subscription|SubscriptionItem|SubscriptionSchedule|Topup)Service", Function: "New|Create.*", Kind: "create"},
		{Package: "github.com/stripe/stripe-go/...", Function: "New|Create.*", Kind: "harmless"},
		{Package: "github.com/stripe/stripe-go/...", Function: "Capture.*", Kind: "capture"},
		{Package: "github.com/stripe/stripe-go/...", Function: "Confirm.*", Kind: "confirm"},
		{Package: "github.com/stripe/stripe-go/...", Function: "Pay", Kind: "pay"},
		{Package: "github.com/stripe/stripe-go/...", Function: "Refund.*", Kind: "refund"},
		{Package: "github.com/stripe/stripe-go/...", Function: "IncrementAuthorization|Charge.*", Kind: "charge"},
		{Package: "github.com/stripe/stripe-go/...", Function: "Del|Delete.*", Kind: "delete"},
		{Package: "github.com/stripe/stripe-go/...", Function: "Get|List.*|Search.*|Retrieve.*|Read.*|Iter.*|Preview.*|Upcoming.*|Query.*|All", Kind: "read"},
		{Package: "github.com/stripe/stripe-go/...", Function: ".*", Kind: "update"},
	},
}

// defaults is builtin, compiled on first use: every go vet process of a
// lint loads this package, and most of them (the standard library's) never
// build a model.
var defaults = sync.OnceValue(func() config.Config { return mustCompile(builtin) })

func mustCompile(c config.Config) config.Config {
	for _, list := range [][]config.Pattern{c.Sources, c.Sinks, c.Barriers, c.Operations} {
		for i := range list {
			if err := list[i].Compile(); err != nil {
				panic(err)
			}
		}
	}
	return c
}
