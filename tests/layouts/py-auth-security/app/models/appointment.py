"""Appointments between a patient and a practitioner."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

STATUSES = ("booked", "cancelled", "attended", "no_show")


@dataclass
class Appointment:
    id: int
    patient_id: int
    practitioner_id: int
    starts_at: datetime
    minutes: int
    status: str = "booked"
    note: str = ""

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.minutes)

    def overlaps(self, other: "Appointment") -> bool:
        if self.practitioner_id != other.practitioner_id:
            return False
        if "cancelled" in (self.status, other.status):
            return False
        return self.starts_at < other.ends_at and other.starts_at < self.ends_at

    def cancellable(self, now: datetime, notice: timedelta = timedelta(hours=24)) -> bool:
        return self.status == "booked" and self.starts_at - now >= notice
