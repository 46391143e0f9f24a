"""Booking appointments without double-booking a practitioner."""

from __future__ import annotations

import itertools
from datetime import datetime

from app.models.appointment import Appointment

_ids = itertools.count(1)


class BookingError(Exception):
    pass


def book(calendar: list[Appointment], patient_id: int, practitioner_id: int,
         starts_at: datetime, minutes: int) -> Appointment:
    if minutes not in (10, 20, 30, 45, 60):
        raise BookingError("appointments last 10, 20, 30, 45 or 60 minutes")
    candidate = Appointment(next(_ids), patient_id, practitioner_id, starts_at, minutes)
    clash = next((a for a in calendar if a.overlaps(candidate)), None)
    if clash is not None:
        raise BookingError(f"practitioner is busy until {clash.ends_at:%H:%M}")
    calendar.append(candidate)
    return candidate


def cancel(calendar: list[Appointment], appointment_id: int, now: datetime) -> Appointment:
    appt = next((a for a in calendar if a.id == appointment_id), None)
    if appt is None:
        raise BookingError("no such appointment")
    if not appt.cancellable(now):
        raise BookingError("appointments can be cancelled up to 24 hours ahead")
    appt.status = "cancelled"
    return appt


def list_for_patient(calendar: list[Appointment], patient_id: int) -> list[Appointment]:
    return sorted((a for a in calendar if a.patient_id == patient_id), key=lambda a: a.starts_at)
