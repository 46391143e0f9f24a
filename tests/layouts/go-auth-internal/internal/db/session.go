// Package db wraps database/sql with a session type that runs a unit of work
// in one transaction.
package db

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

type DB struct {
	sql *sql.DB
}

func Open(driver, url string) (*DB, error) {
	conn, err := sql.Open(driver, url)
	if err != nil {
		return nil, err
	}
	conn.SetMaxOpenConns(20)
	conn.SetConnMaxIdleTime(5 * time.Minute)
	return &DB{sql: conn}, nil
}

// Session is one transaction's worth of queries.
type Session struct {
	tx *sql.Tx
}

func (s *Session) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return s.tx.ExecContext(ctx, query, args...)
}

func (s *Session) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return s.tx.QueryRowContext(ctx, query, args...)
}

func (s *Session) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return s.tx.QueryContext(ctx, query, args...)
}

// WithSession runs fn in a transaction, committing if it returns nil and
// rolling back otherwise (also on panic).
func (d *DB) WithSession(ctx context.Context, fn func(*Session) error) (err error) {
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("db: begin: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
		if err != nil {
			_ = tx.Rollback()
			return
		}
		err = tx.Commit()
	}()
	return fn(&Session{tx: tx})
}

func (d *DB) Close() error { return d.sql.Close() }
