"""Human ways of writing a date, each a function ``datetime.date -> str``.

Names are spelled out here rather than taken from ``strftime`` so the output does not depend
on the machine's locale. Numeric formats always put the day before the month (or use the
year-first order), so every written date has exactly one reading.
"""
from __future__ import annotations

import datetime as dt
from typing import Callable

MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

DateFormat = Callable[[dt.date], str]


def ordinal(day: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 22 -> "22nd"."""
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _month(d: dt.date) -> str:
    return MONTHS[d.month - 1]


def _mon(d: dt.date) -> str:
    return MONTHS[d.month - 1][:3]


def _weekday(d: dt.date) -> str:
    return WEEKDAYS[d.weekday()]


def iso(d: dt.date) -> str:
    """The target format, yyyy-mm-dd."""
    return f"{d.year:04d}-{d.month:02d}-{d.day:02d}"


# Formats seen in training. Examples are for 2026-11-21.
TRAIN_FORMATS: dict[str, DateFormat] = {
    "d Mon yyyy": lambda d: f"{d.day} {_mon(d)} {d.year}",  # 21 Nov 2026
    "d Month yyyy": lambda d: f"{d.day} {_month(d)} {d.year}",  # 21 November 2026
    "Month d, yyyy": lambda d: f"{_month(d)} {d.day}, {d.year}",  # November 21, 2026
    "Mon d, yyyy": lambda d: f"{_mon(d)} {d.day}, {d.year}",  # Nov 21, 2026
    "dd/mm/yyyy": lambda d: f"{d.day:02d}/{d.month:02d}/{d.year}",  # 21/11/2026
    "dd.mm.yyyy": lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",  # 21.11.2026
    "yyyy/mm/dd": lambda d: f"{d.year}/{d.month:02d}/{d.day:02d}",  # 2026/11/21
    "yyyymmdd": lambda d: f"{d.year}{d.month:02d}{d.day:02d}",  # 20261121
    "d-Mon-yyyy": lambda d: f"{d.day}-{_mon(d)}-{d.year}",  # 21-Nov-2026
    "yyyy Mon d": lambda d: f"{d.year} {_mon(d)} {d.day}",  # 2026 Nov 21
    "Month dth, yyyy": lambda d: f"{_month(d)} {ordinal(d.day)}, {d.year}",  # November 21st, 2026
    "dth Month yyyy": lambda d: f"{ordinal(d.day)} {_month(d)} {d.year}",  # 21st November 2026
    "the dth of Month, yyyy": lambda d: f"the {ordinal(d.day)} of {_month(d)}, {d.year}",  # the 21st of November, 2026
    "Weekday, d Month yyyy": lambda d: f"{_weekday(d)}, {d.day} {_month(d)} {d.year}",  # Saturday, 21 November 2026
    "Wkd d Mon yyyy": lambda d: f"{_weekday(d)[:3]} {d.day} {_mon(d)} {d.year}",  # Sat 21 Nov 2026
    "d MON yyyy": lambda d: f"{d.day} {_mon(d).upper()} {d.year}",  # 21 NOV 2026
    "d month yyyy": lambda d: f"{d.day} {_month(d).lower()} {d.year}",  # 21 november 2026
}

# Formats kept out of training, to test whether a model generalises to new combinations of
# pieces it has seen.
HELD_OUT_FORMATS: dict[str, DateFormat] = {
    "dd-mm-yyyy": lambda d: f"{d.day:02d}-{d.month:02d}-{d.year}",  # 21-11-2026
    "Mon dth, yyyy": lambda d: f"{_mon(d)} {ordinal(d.day)}, {d.year}",  # Nov 21st, 2026
    "Weekday, Month d, yyyy": lambda d: f"{_weekday(d)}, {_month(d)} {d.day}, {d.year}",  # Saturday, November 21, 2026
    "MONTH d, yyyy": lambda d: f"{_month(d).upper()} {d.day}, {d.year}",  # NOVEMBER 21, 2026
}

ALL_FORMATS: dict[str, DateFormat] = {**TRAIN_FORMATS, **HELD_OUT_FORMATS}
