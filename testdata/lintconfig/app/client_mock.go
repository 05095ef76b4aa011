package app

import (
	"net/http"

	"github.com/idemcheck/idemcheck/testdata/lintconfig/acme/ids"
)

// exclude: findings in files matching **/*_mock.go are dropped.
func mockNotify(req *http.Request) {
	req.Header.Set("X-Op-Token", ids.Token())
}
