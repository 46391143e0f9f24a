// Package payments stores customers' cards as processor tokens and charges
// them for deliveries.
package payments

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

var ErrCardExpired = errors.New("payments: card expired")

// CardToken stands for a card held by the payment processor. We never see
// the card number; the token, last four digits and expiry are all we keep.
type CardToken struct {
	Token      string `json:"token"`
	CustomerID string `json:"customer_id"`
	Brand      string `json:"brand"`
	Last4      string `json:"last4"`
	ExpMonth   int    `json:"exp_month"`
	ExpYear    int    `json:"exp_year"`
}

// Expiry is the first instant the card is no longer valid: the start of the
// month after its printed expiry month.
func (c CardToken) Expiry() time.Time {
	return time.Date(c.ExpYear, time.Month(c.ExpMonth)+1, 1, 0, 0, 0, 0, time.UTC)
}

func (c CardToken) Expired(now time.Time) bool { return !now.Before(c.Expiry()) }

// ExpiringBefore filters the cards that stop working before the deadline.
func ExpiringBefore(cards []CardToken, now, deadline time.Time) []CardToken {
	var out []CardToken
	for _, c := range cards {
		if !c.Expired(now) && c.Expiry().Before(deadline) {
			out = append(out, c)
		}
	}
	return out
}

type Client struct {
	BaseURL string
	HTTP    *http.Client
}

// Charge bills a stored card; amount is in cents.
func (cl *Client) Charge(ctx context.Context, card CardToken, amountCents int64, ref string) error {
	if card.Expired(time.Now()) {
		return ErrCardExpired
	}
	body, _ := json.Marshal(map[string]any{"token": card.Token, "amount": amountCents, "reference": ref})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cl.BaseURL+"/v1/charges", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := cl.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("payments: charge refused with %s", resp.Status)
	}
	return nil
}
