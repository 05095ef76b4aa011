package restarttest

import "testing"

func TestAnswerDifference(t *testing.T) {
	stored := Attempt{HTTPStatus: 201, Response: `{"order_id":"ord_1","charge":{"id":"ch_1","amount":"150.00"}}`}
	cases := []struct {
		status int
		body   string
		want   string
	}{
		{201, `{"charge":{"amount":"150.00","id":"ch_1"},"order_id":"ord_1"}`, ""}, // by value
		{200, stored.Response, "status 201 → 200"},
		{201, `{"order_id":"ord_2","charge":{"id":"ch_1","amount":"150.00"}}`, `JSON $.order_id: "ord_1" → "ord_2"`},
		{201, `{"order_id":"ord_1","charge":{"id":"ch_1"}}`, `JSON $.charge.amount: "150.00" → absent`},
		{201, `{"order_id":"ord_1","charge":{"id":"ch_1","amount":"150.00"},"replayed":true}`, `JSON $.replayed: absent → true`},
		{201, `order ord_1`, `body at byte 0: "{\"order_id\":\"ord_1\","… → "order ord_1"`},
	}
	for _, tc := range cases {
		if got := answerDifference(tc.status, tc.body, stored); got != tc.want {
			t.Errorf("answerDifference(%d, %s) = %q, want %q", tc.status, tc.body, got, tc.want)
		}
	}
}
