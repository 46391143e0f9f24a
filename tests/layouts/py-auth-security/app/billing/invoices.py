"""Patient invoices and paying them with a stored payment token."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from app.billing.payment_tokens import PaymentToken, PaymentTokenError


@dataclass
class InvoiceLine:
    description: str
    amount: Decimal


@dataclass
class Invoice:
    id: int
    patient_id: int
    issued_on: date
    due_on: date
    lines: list[InvoiceLine] = field(default_factory=list)
    paid_on: date | None = None

    @property
    def total(self) -> Decimal:
        return sum((line.amount for line in self.lines), Decimal("0"))

    def is_overdue(self, today: date) -> bool:
        return self.paid_on is None and today > self.due_on


def pay(invoice: Invoice, method: PaymentToken, today: date | None = None) -> Invoice:
    today = today or date.today()
    if invoice.paid_on is not None:
        raise ValueError(f"invoice {invoice.id} is already paid")
    if method.patient_id != invoice.patient_id:
        raise PaymentTokenError("payment method belongs to another patient")
    if method.is_expired(today):
        raise PaymentTokenError(f"{method.masked()} has expired")
    invoice.paid_on = today
    return invoice
