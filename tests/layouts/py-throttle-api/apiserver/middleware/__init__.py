"""Middleware: functions that take a handler and return a wrapped handler."""
