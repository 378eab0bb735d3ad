"""plan.schedules: CronJob schedules as the API server takes them (robfig/cron v3 ParseStandard,
then the refusal of TZ on create): examples, exact messages, robfig's quirks, and properties
over generated schedules."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_facts.kubernetes_syntax import CRON_DAY_NAMES, CRON_FIELDS, CRON_MONTH_NAMES
from gpu_platform.plan.schedules import (
    CRON_RULE,
    CronSchedule,
    EverySchedule,
    ScheduleError,
    parse_schedule,
    schedule_problem,
)


def cron(spec: str) -> CronSchedule:
    parsed = parse_schedule(spec)
    assert isinstance(parsed, CronSchedule)
    return parsed


# --- accepted --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        "0 6 * * *",
        "*/30 * * * 1-5",
        "0 0 1,15 * *",
        "0 0 * jan-mar,JUL *",
        "0 0 * * Mon-FRI",
        "59 23 31 12 6",
        "0 0 1 1 0",
        "? ? ? ? ?",
        "0\t6  *\n* *",
        "  0 6 * * *  ",
        "@yearly",
        "@annually",
        "@monthly",
        "@weekly",
        "@daily",
        "@midnight",
        "@hourly",
        "@every 1h30m",
        "@every 90s",
    ],
)
def test_kubernetes_takes(spec: str) -> None:
    assert schedule_problem(spec) is None


def test_values_of_each_field() -> None:
    parsed = cron("*/15 3-5 5/10 jan-mar mon,wed,fri")
    assert parsed.minutes == {0, 15, 30, 45}
    assert parsed.hours == {3, 4, 5}
    assert parsed.days_of_month == {5, 15, 25}
    assert parsed.months == {1, 2, 3}
    assert parsed.days_of_week == {1, 3, 5}
    assert (parsed.day_of_month_star, parsed.day_of_week_star) == (False, False)
    assert cron("1-10/3 * * * *").minutes == {1, 4, 7, 10}


def test_stars_as_robfig_marks_them() -> None:
    # "*" and "*/1" are stars (day of month and day of week then combine with AND); "*/2" not.
    assert cron("0 0 * * *").day_of_month_star and cron("0 0 * * *").day_of_week_star
    assert cron("0 0 */1 * ?").day_of_month_star and cron("0 0 */1 * ?").day_of_week_star
    assert not cron("0 0 */2 * *").day_of_month_star


def test_descriptors_mean_their_schedules() -> None:
    assert parse_schedule("@weekly") == cron("0 0 * * 0")
    assert parse_schedule("@hourly") == cron("0 * * * *")
    assert parse_schedule("@yearly") == parse_schedule("@annually") == cron("0 0 1 1 *")


@pytest.mark.parametrize(
    ("duration", "seconds"),
    [
        ("1h30m", 5400),
        ("1.5h", 5400),
        ("90s", 90),
        ("2m3.5s", 123),
        ("500ms", 1),  # robfig runs at least every second
        ("0", 1),
        ("-1h", 1),
        ("+10s", 10),
        ("1h1m1s1ms1us1\u00b5s1\u03bcs1ns", 3661),
        (".5m", 30),
        ("1.h", 3600),
    ],
)
def test_every(duration: str, seconds: int) -> None:
    assert parse_schedule(f"@every {duration}") == EverySchedule(seconds)


def test_robfig_quirks_that_kubernetes_therefore_accepts() -> None:
    # "*" ignores what follows a hyphen; empty list items are skipped; numbers take a sign.
    assert cron("*-5 * * * *").minutes == set(range(60))
    assert cron("*-x * * * *").minutes == set(range(60))
    assert cron("1,,2 * * * *").minutes == {1, 2}
    assert cron("0 , * * *").hours == set()
    assert cron("+5 +0 * * *").minutes == {5}
    assert cron("005 * * * *").minutes == {5}


# --- refused ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("99 99 99 99 99", "minute: 99 is above 59 (in '99')"),
        ("a b c d e", "minute: 'a' is not a number"),
        ("0 24 * * *", "hour: 24 is above 23 (in '24')"),
        ("0 0 0 * *", "day of month: 0 is below 1 (in '0')"),
        ("0 0 32 * *", "day of month: 32 is above 31 (in '32')"),
        ("0 0 * 13 *", "month: 13 is above 12 (in '13')"),
        ("0 0 * 0 *", "month: 0 is below 1 (in '0')"),
        ("0 0 * * 7", "day of week: 7 is above 6 (in '7')"),
        ("0 0 * * sun-sat/2x", "day of week: '2x' is not a number"),
        ("jan * * * *", "minute: 'jan' is not a number"),
        ("0 0 * * mon/tue", "day of week: 'tue' is not a number"),
        ("5-1 * * * *", "minute: the range '5-1' starts after it ends"),
        ("*/0 * * * *", "minute: a step must be 1 or more (in '*/0')"),
        ("*/-1 * * * *", "minute: negative number '-1'"),
        ("1-2-3 * * * *", "minute: too many hyphens in '1-2-3'"),
        ("1/2/3 * * * *", "minute: too many slashes in '1/2/3'"),
        ("-5 * * * *", "minute: '' is not a number"),
        ("1.5 * * * *", "minute: '1.5' is not a number"),
        ("\u0661 * * * *", "minute: '\u0661' is not a number"),  # an Arabic-Indic one
        ("1_0 * * * *", "minute: '1_0' is not a number"),
        ("99999999999999999999 * * * *", "minute: '99999999999999999999' is out of range"),
        ("* * * *", "expected exactly 5 fields, found 4"),
        ("0 0 * * * *", "expected exactly 5 fields, found 6"),
        ("", "the schedule is empty"),
        ("   ", "expected exactly 5 fields, found 0"),
        ("@Daily", "unknown descriptor '@Daily'"),
        ("@daily ", "unknown descriptor '@daily '"),
        ("@reboot", "unknown descriptor '@reboot'"),
        ("@every1h", "unknown descriptor '@every1h'"),
        ("@every ", "@every: '' is not a duration (e.g. 1h30m, 90s)"),
        ("@every 10", "@every: '10' is not a duration (e.g. 1h30m, 90s)"),
        ("@every 1d", "@every: '1d' is not a duration (e.g. 1h30m, 90s)"),
        ("@every .s", "@every: '.s' is not a duration (e.g. 1h30m, 90s)"),
        ("@every 9999999999h", "@every: '9999999999h' is not a duration (e.g. 1h30m, 90s)"),
        ("0 6 * * * # daily", "expected exactly 5 fields, found 7"),
        ("0 6 L * *", "day of month: 'L' is not a number"),
        ("0 6 * * 1#2", "day of week: '1#2' is not a number"),
        ("TZ=UTC", "a time zone with no schedule after it"),
    ],
)
def test_kubernetes_refuses(spec: str, why: str) -> None:
    assert schedule_problem(spec) == f"{spec!r} is not a cron schedule: {why}. {CRON_RULE}"
    with pytest.raises(ScheduleError, match=f"^{re.escape(why)}$"):
        parse_schedule(spec)


@pytest.mark.parametrize("spec", ["TZ=UTC 0 6 * * *", "CRON_TZ=Europe/Berlin @daily"])
def test_time_zones_parse_but_are_refused_on_create(spec: str) -> None:
    assert parse_schedule(spec).time_zone in ("UTC", "Europe/Berlin")
    assert schedule_problem(spec) == (
        f"{spec!r}: Kubernetes refuses TZ= and CRON_TZ= in a CronJob's schedule (\"use timeZone "
        "field instead\"); the checks run in the controller manager's time zone"
    )


def test_the_rule_states_the_fields_and_their_bounds() -> None:
    for field, low, high in CRON_FIELDS:
        assert f"{field} {low}-{high}" in CRON_RULE


# --- properties ------------------------------------------------------------------------------

NAMES: tuple[dict[str, int] | None, ...] = (None, None, None, CRON_MONTH_NAMES, CRON_DAY_NAMES)


@st.composite
def field_item(draw: st.DrawFn, index: int) -> tuple[str, set[int]]:
    """One comma item of field ``index`` and the values it means (computed apart from the
    parser)."""
    _, low, high = CRON_FIELDS[index]
    names = NAMES[index]

    def number(value: int) -> str:
        if names is not None and draw(st.booleans()):
            name = next(n for n, v in names.items() if v == value)
            return "".join(c.upper() if draw(st.booleans()) else c for c in name)
        return str(value)

    kind = draw(st.sampled_from(["star", "one", "range"]))
    step = draw(st.none() | st.integers(1, high + 2))
    if kind == "star":
        start, end, text = low, high, draw(st.sampled_from(["*", "?"]))
    elif kind == "one":
        start = draw(st.integers(low, high))
        end = high if step is not None else start
        text = number(start)
    else:
        start = draw(st.integers(low, high))
        end = draw(st.integers(start, high))
        text = f"{number(start)}-{number(end)}"
    if step is not None:
        text += f"/{step}"
    return text, set(range(start, end + 1, step or 1))


@st.composite
def schedules(draw: st.DrawFn) -> tuple[str, list[set[int]]]:
    texts, values = [], []
    for index in range(len(CRON_FIELDS)):
        items = draw(st.lists(field_item(index), min_size=1, max_size=3))
        texts.append(",".join(text for text, _ in items))
        values.append(set().union(*(found for _, found in items)))
    separator = draw(st.sampled_from([" ", "  ", "\t"]))
    return separator.join(texts), values


@settings(max_examples=50)  # each example draws some 20 values: keep the test under a second
@given(schedules())
def test_generated_schedules_mean_what_they_say(case: tuple[str, list[set[int]]]) -> None:
    spec, values = case
    parsed = cron(spec)
    assert [
        parsed.minutes,
        parsed.hours,
        parsed.days_of_month,
        parsed.months,
        parsed.days_of_week,
    ] == values
    assert schedule_problem(spec) is None


@given(
    st.integers(0, 4),
    st.sampled_from(["below", "above"]),
    st.integers(1, 10**6),
)
def test_a_number_out_of_its_fields_bounds_is_refused(index: int, side: str, by: int) -> None:
    field, low, high = CRON_FIELDS[index]
    value = low - by if side == "below" else high + by
    if value < 0:  # a negative number is no number in a field: "-" splits a range
        return
    fields = ["1"] * 5
    fields[index] = str(value)
    spec = " ".join(fields)
    problem = schedule_problem(spec)
    assert problem is not None
    assert problem.startswith(f"{spec!r} is not a cron schedule: {field}: {value} is ")


@given(st.text(max_size=40))
def test_any_text_is_parsed_or_refused_never_crashes(spec: str) -> None:
    try:
        parse_schedule(spec)
    except ScheduleError:
        assert schedule_problem(spec) is not None
    problem = schedule_problem(spec)
    assert problem is None or problem.startswith(repr(spec))


@given(st.lists(st.sampled_from(["*", "0", "1-2", "*/5", "jan", "mon", "?"]), max_size=8))
def test_only_five_fields_are_a_schedule(fields: list[str]) -> None:
    spec = " ".join(fields)
    if len(fields) != 5 and spec:
        assert f"expected exactly 5 fields, found {len(fields)}" in (schedule_problem(spec) or "")
