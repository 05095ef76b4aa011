// Package logfield: shape 2 of issue 18. A log field, a metric label, a
// trace attribute or an error value named idempotency_key is not a sink:
// nothing is repeated through it.
package logfield

import (
	"fmt"
	"log/slog"
	"net/http"

	"github.com/google/uuid"
	"github.com/sirupsen/logrus"
	"go.uber.org/zap"
)

// Silent: a fresh correlation id logged under the key's name.
func logged(log *zap.Logger) {
	key := uuid.NewString()
	log.Info("sending", zap.String("idempotency_key", key))
	slog.Info("sending", "idempotency_key", key)
	slog.Info("sending", slog.String("idempotency_key", key))
	logrus.WithField("idempotency_key", key).Info("sending")
	logrus.WithFields(logrus.Fields{"idempotency_key": key}).Info("sending")
}

// Silent: an error value.
func failed(err error) error {
	return fmt.Errorf("charge (idempotency_key %s): %w", uuid.NewString(), err)
}

// Found: the same value in the request's header.
func sent(req *http.Request, log *zap.Logger) {
	key := uuid.NewString()
	log.Info("sending", zap.String("idempotency_key", key))
	req.Header.Set("Idempotency-Key", key) // want `built from uuid\.NewString`
}
