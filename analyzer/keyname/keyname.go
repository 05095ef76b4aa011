// Package keyname recognises names that denote idempotency or
// deduplication keys (idempotencyKey, idemKey, dedupKey,
// chave_idempotencia, the Idempotency-Key header, AWS ClientToken…) and
// names of per-attempt transport identity (message_id, wamid,
// delivery_tag, request_id, trace_id, attempt counters…).
//
// Names are compared after normalization: lower-cased, with every
// character that is not a letter or digit removed, so IdempotencyKey,
// idempotency_key and Idempotency-Key are the same name. The patterns are
// exported so every rule and the configuration file can reuse or override
// them.
package keyname

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// DefaultKey matches normalized names of idempotency and deduplication keys,
// including the AWS SDK's request tokens, PayPal Payouts' sender_batch_id (a
// batch id used in the last 30 days is refused, so a retry under a new one
// pays again) and the Portuguese spellings.
const DefaultKey = `idempotencykey|idempotencytoken|idempotencyid|idempotentkey|idempotencekey|idemkey|` +
	`dedupkey|dedupekey|dedupid|deduplicationkey|deduplicationid|dedupeid|` +
	`chaveidempotencia|chavedeidempotencia|chaveidempotente|chavededup|` +
	`clientrequesttoken|^callerreference$|messagededuplicationid|^senderbatchid$`

// A bare ClientToken is not in DefaultKey: AWS names its idempotency token
// so, and Vault its authentication token. The AWS SDKs' ClientToken is a
// sink by the key model's table of SDK fields (keymodel's SinkFields).

// DefaultHeader matches normalized HTTP header names that carry an
// idempotency key to a provider, in the spellings real APIs use:
// Idempotency-Key, X-Idempotency-Key, Idempotence-Key (YooKassa),
// Cko-Idempotency-Key (Checkout.com), Idempotent-Key, Idempotency-Token,
// PayPal-Request-Id (PayPal's idempotency header), and JetStream's
// deduplication header Nats-Msg-Id.
const DefaultHeader = `^(x|cko)?idempoten(cy|ce|t)(key|token)$|^paypalrequestid$|^natsmsgid$`

// DefaultIdentity matches normalized names of per-attempt transport and
// observability identity: values a redelivery does not repeat.
const DefaultIdentity = `^(wa)?messageid$|^msgid$|^wamid$|^deliverytag$|^receipthandle$|` +
	`^(x)?requestid$|^reqid$|^(x)?traceid$|^spanid$|^(x)?amzntraceid$|` +
	`^attempts?$|^attemptnumber$|^attemptcount$|^retrycount$|^retries$|^retryattempt$|` +
	`^redelivered$|^deliverycount$|^deliveryattempt$|^receivecount$|^approximatereceivecount$`

// Matcher reports whether a name matches a pattern after normalization.
// It remembers its answers: analyzers ask about the same names many times.
type Matcher struct {
	re   *regexp.Regexp
	mu   sync.Mutex
	memo map[string]bool
}

// Compile builds a Matcher from a regular expression over normalized names.
func Compile(expr string) (*Matcher, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	return &Matcher{re: re, memo: map[string]bool{}}, nil
}

// MustCompile is Compile that panics on a bad expression; for defaults.
func MustCompile(expr string) *Matcher {
	m, err := Compile(expr)
	if err != nil {
		panic(err)
	}
	return m
}

// Match reports whether name, once normalized, matches.
func (m *Matcher) Match(name string) bool {
	if m == nil || name == "" {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.memo[name]; ok {
		return v
	}
	v := m.re.MatchString(Normalize(name))
	if len(m.memo) < 1<<16 {
		m.memo[name] = v
	}
	return v
}

// String returns the pattern.
func (m *Matcher) String() string {
	if m == nil {
		return ""
	}
	return m.re.String()
}

// Default matchers.
var (
	Key      = MustCompile(DefaultKey)
	Header   = MustCompile(DefaultHeader)
	Identity = MustCompile(DefaultIdentity)
)

// Normalize lower-cases name and drops everything that is not a letter or
// digit, and folds the accented letters of Portuguese names (chave_idempotência).
func Normalize(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range name {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsLetter(r):
			b.WriteRune(foldAccent(unicode.ToLower(r)))
		}
	}
	return b.String()
}

func foldAccent(r rune) rune {
	switch r {
	case 'á', 'à', 'â', 'ã', 'ä':
		return 'a'
	case 'é', 'ê', 'è', 'ë':
		return 'e'
	case 'í', 'ì', 'î', 'ï':
		return 'i'
	case 'ó', 'ô', 'õ', 'ò', 'ö':
		return 'o'
	case 'ú', 'ù', 'û', 'ü':
		return 'u'
	case 'ç':
		return 'c'
	}
	return r
}

// JSONTagName returns the name part of a struct tag's json key, or "".
func JSONTagName(tag string) string {
	for tag != "" {
		// Skip leading space.
		i := 0
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		tag = tag[i:]
		if tag == "" {
			break
		}
		i = 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' {
			i++
		}
		if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			break
		}
		name := tag[:i]
		tag = tag[i+1:]
		// Scan quoted string.
		i = 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			break
		}
		value := tag[1:i]
		tag = tag[i+1:]
		if name == "json" {
			if j := strings.IndexByte(value, ','); j >= 0 {
				value = value[:j]
			}
			return value
		}
	}
	return ""
}
