"""An independent reader of written dates, for checking the date task and its metrics."""
import calendar
import datetime as dt
import re


def parse_human_date(text: str) -> dt.date:
    """An independent reader of the date formats: months, weekdays, ordinals, numbers."""
    months = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
    months.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
    weekdays = {name.lower(): i for i, name in enumerate(calendar.day_name)}
    weekdays.update({name.lower(): i for i, name in enumerate(calendar.day_abbr)})
    words = re.findall(r"[a-z]+|\d+", re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", text.lower()))
    weekday = [weekdays[w] for w in words if w in weekdays]
    month_words = [months[w] for w in words if w in months]
    numbers = [w for w in words if w.isdigit()]
    if len(numbers) == 1:  # yyyymmdd
        (n,) = numbers
        date = dt.date(int(n[:4]), int(n[4:6]), int(n[6:]))
    elif month_words:
        year = next(n for n in numbers if len(n) == 4)
        day = next(n for n in numbers if len(n) <= 2)
        date = dt.date(int(year), month_words[0], int(day))
    elif len(numbers[0]) == 4:  # yyyy/mm/dd
        date = dt.date(int(numbers[0]), int(numbers[1]), int(numbers[2]))
    else:  # day first
        date = dt.date(int(numbers[2]), int(numbers[1]), int(numbers[0]))
    if weekday:
        assert weekday[0] == date.weekday(), f"wrong weekday in {text!r}"
    return date
