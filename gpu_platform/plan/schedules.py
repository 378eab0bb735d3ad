"""CronJob schedules as Kubernetes takes them: robfig/cron v3's ``ParseStandard`` (which the API
server runs on ``spec.schedule``), then the API server's own refusal of time zones in the
schedule. Written from the parser's rules (``gpu_facts.kubernetes_syntax``), quirks included,
so that what is accepted here is what Kubernetes accepts:

- exactly five fields, split on whitespace; each a comma list (empty items are skipped) of
  ``*`` or ``?``, ``n`` or ``a-b``, each with an optional ``/step`` (``n/step`` runs from ``n``
  to the field's maximum); ``*`` ignores anything after a ``-`` (``*-5`` is ``*``);
- numbers as Go's ``strconv.Atoi`` reads them (a sign is allowed: ``+5``); month and
  day-of-week names anywhere a number goes but in a step, in any case;
- ``@yearly``, ``@annually``, ``@monthly``, ``@weekly``, ``@daily``, ``@midnight``,
  ``@hourly`` exactly, and ``@every <Go duration>``;
- a ``TZ=``/``CRON_TZ=`` prefix parses (its zone is not looked up), but a schedule containing
  ``TZ`` is refused on create.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from gpu_facts.kubernetes_syntax import (
    CRON_DAY_NAMES,
    CRON_DESCRIPTORS,
    CRON_EVERY,
    CRON_FIELDS,
    CRON_MONTH_NAMES,
    CRON_TZ_PREFIXES,
)


class ScheduleError(ValueError):
    """A schedule robfig/cron (and so Kubernetes) refuses; the message says why."""


@dataclass(frozen=True, slots=True)
class CronSchedule:
    """The values each field takes; ``*_star`` as robfig marks a field given as ``*`` (or
    ``*/1``), which changes how day of month and day of week combine."""

    minutes: frozenset[int]
    hours: frozenset[int]
    days_of_month: frozenset[int]
    months: frozenset[int]
    days_of_week: frozenset[int]
    day_of_month_star: bool
    day_of_week_star: bool
    time_zone: str | None = None


@dataclass(frozen=True, slots=True)
class EverySchedule:
    """``@every <duration>``: robfig runs it every ``seconds`` (at least one, whole seconds)."""

    seconds: int
    time_zone: str | None = None


Schedule = CronSchedule | EverySchedule

_FIELD_NAMES: tuple[dict[str, int] | None, ...] = (
    None,
    None,
    None,
    CRON_MONTH_NAMES,
    CRON_DAY_NAMES,
)
_INT_MAX = 2**63 - 1
_GO_SPACE = "\t\n\v\f\r \x85\xa0"
_DURATION_UNITS: dict[str, int] = {
    "ns": 1,
    "us": 10**3,
    "\u00b5s": 10**3,
    "\u03bcs": 10**3,
    "ms": 10**6,
    "s": 10**9,
    "m": 60 * 10**9,
    "h": 3600 * 10**9,
}
"""Go's ``time.ParseDuration`` units, in nanoseconds."""


def _is_space(c: str) -> bool:
    """Go's ``unicode.IsSpace`` (Python's ``isspace`` also takes U+001C..U+001F)."""
    return c in _GO_SPACE or (ord(c) > 0xFF and c.isspace())


def _fields(spec: str) -> list[str]:
    """Go's ``strings.Fields``."""
    fields: list[str] = []
    current = ""
    for c in spec:
        if _is_space(c):
            if current:
                fields.append(current)
            current = ""
        else:
            current += c
    if current:
        fields.append(current)
    return fields


def _trim(spec: str) -> str:
    """Go's ``strings.TrimSpace``."""
    start, end = 0, len(spec)
    while start < end and _is_space(spec[start]):
        start += 1
    while end > start and _is_space(spec[end - 1]):
        end -= 1
    return spec[start:end]


def _atoi(text: str, field: str) -> int:
    """Go's ``strconv.Atoi`` for a non-negative number (robfig's ``mustParseInt``)."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not digits or not all("0" <= c <= "9" for c in digits):
        raise ScheduleError(f"{field}: {text!r} is not a number")
    number = int(text)
    if number > _INT_MAX or number < -_INT_MAX - 1:
        raise ScheduleError(f"{field}: {text!r} is out of range")
    if number < 0:
        raise ScheduleError(f"{field}: negative number {text!r}")
    return number


def _value(text: str, field: str, names: dict[str, int] | None) -> int:
    if names is not None and text.lower() in names:
        return names[text.lower()]
    return _atoi(text, field)


def _range(
    expr: str, field: str, low: int, high: int, names: dict[str, int] | None
) -> tuple[set[int], bool]:
    """One comma item: its values, and whether robfig marks it a star."""
    range_and_step = expr.split("/")
    low_and_high = range_and_step[0].split("-")
    star = False
    if low_and_high[0] in ("*", "?"):
        start, end, star = low, high, True
    else:
        start = _value(low_and_high[0], field, names)
        if len(low_and_high) == 1:
            end = start
        elif len(low_and_high) == 2:
            end = _value(low_and_high[1], field, names)
        else:
            raise ScheduleError(f"{field}: too many hyphens in {expr!r}")
    if len(range_and_step) == 1:
        step = 1
    elif len(range_and_step) == 2:
        step = _atoi(range_and_step[1], field)
        if len(low_and_high) == 1:  # "n/step" runs from n to the maximum
            end = high
        if step > 1:
            star = False
    else:
        raise ScheduleError(f"{field}: too many slashes in {expr!r}")
    if start < low:
        raise ScheduleError(f"{field}: {start} is below {low} (in {expr!r})")
    if end > high:
        raise ScheduleError(f"{field}: {end} is above {high} (in {expr!r})")
    if start > end:
        raise ScheduleError(f"{field}: the range {expr!r} starts after it ends")
    if step == 0:
        raise ScheduleError(f"{field}: a step must be 1 or more (in {expr!r})")
    return set(range(start, end + 1, step)), star


def _field(text: str, index: int) -> tuple[frozenset[int], bool]:
    field, low, high = CRON_FIELDS[index]
    values: set[int] = set()
    star = False
    for expr in (item for item in text.split(",") if item):
        found, item_star = _range(expr, field, low, high, _FIELD_NAMES[index])
        values |= found
        star = star or item_star
    return frozenset(values), star


def _cron(spec: str, time_zone: str | None) -> CronSchedule:
    fields = _fields(spec)
    if len(fields) != len(CRON_FIELDS):
        raise ScheduleError(f"expected exactly {len(CRON_FIELDS)} fields, found {len(fields)}")
    parsed = [_field(text, i) for i, text in enumerate(fields)]
    (minutes, _), (hours, _), (dom, dom_star), (months, _), (dow, dow_star) = parsed
    return CronSchedule(minutes, hours, dom, months, dow, dom_star, dow_star, time_zone)


def _go_duration_ns(text: str) -> int:
    """Go's ``time.ParseDuration``, in nanoseconds."""
    invalid = ScheduleError(f"@every: {text!r} is not a duration (e.g. 1h30m, 90s)")
    rest, negative = text, False
    if rest[:1] in ("+", "-"):
        negative, rest = rest[0] == "-", rest[1:]
    if rest == "0":
        return 0
    if not rest:
        raise invalid
    total = 0
    while rest:
        i = 0
        while i < len(rest) and "0" <= rest[i] <= "9":
            i += 1
        whole, rest = rest[:i], rest[i:]
        fraction = ""
        if rest[:1] == ".":
            j = 1
            while j < len(rest) and "0" <= rest[j] <= "9":
                j += 1
            fraction, rest = rest[1:j], rest[j:]
        if not whole and not fraction:
            raise invalid
        j = 0
        while j < len(rest) and rest[j] != "." and not "0" <= rest[j] <= "9":
            j += 1
        unit, rest = _DURATION_UNITS.get(rest[:j]), rest[j:]
        if unit is None:
            raise invalid
        value = int(whole or "0") * unit
        if fraction:
            value += int(Decimal(int(fraction)) * unit / Decimal(10) ** len(fraction))
        total += value
        if total > 2**63:
            raise invalid
    if not negative and total > _INT_MAX:
        raise invalid
    return -total if negative else total


def _descriptor(spec: str, time_zone: str | None) -> Schedule:
    if spec in CRON_DESCRIPTORS:
        return _cron(CRON_DESCRIPTORS[spec], time_zone)
    if spec.startswith(CRON_EVERY):
        nanoseconds = _go_duration_ns(spec[len(CRON_EVERY) :])
        return EverySchedule(max(1, nanoseconds // 10**9), time_zone)
    raise ScheduleError(f"unknown descriptor {spec!r}")


def parse_schedule(spec: str) -> Schedule:
    """``spec`` as robfig/cron's ``ParseStandard`` reads it, or ``ScheduleError``."""
    if not spec:
        raise ScheduleError("the schedule is empty")
    time_zone = None
    if spec.startswith(CRON_TZ_PREFIXES):
        space = spec.find(" ")
        if space < 0:
            raise ScheduleError("a time zone with no schedule after it")
        time_zone = spec[spec.index("=") + 1 : space]
        spec = _trim(spec[space:])
    if spec.startswith("@"):
        return _descriptor(spec, time_zone)
    return _cron(spec, time_zone)


CRON_RULE = (
    "Kubernetes takes five fields (minute 0-59, hour 0-23, day of month 1-31, month 1-12 or "
    "jan-dec, day of week 0-6 or sun-sat), each *, n or a-b with an optional /step, or a comma "
    "list of them; or @hourly, @daily, @weekly, @monthly, @yearly, @every <duration>"
)


def schedule_problem(spec: str) -> str | None:
    """Why the API server refuses ``spec`` as a new CronJob's schedule, or None."""
    try:
        parse_schedule(spec)
    except ScheduleError as err:
        return f"{spec!r} is not a cron schedule: {err}. {CRON_RULE}"
    if "TZ" in spec:
        return (
            f"{spec!r}: Kubernetes refuses TZ= and CRON_TZ= in a CronJob's schedule (\"use "
            "timeZone field instead\"); the checks run in the controller manager's time zone"
        )
    return None
