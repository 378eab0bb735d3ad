"""The Prometheus text format parser ``make verify`` reads dcgm-exporter's ``/metrics`` with."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpu_platform.verify.prometheus_text import MetricsFormatError, Sample, samples

PAGE = """\
# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).
# TYPE DCGM_FI_DEV_GPU_UTIL gauge
DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-1",modelName="Tesla T4",hostname="n1",pod="",} 37
DCGM_FI_DEV_GPU_UTIL{gpu="1",UUID="GPU-2",pod="infer-0",namespace="gpu-inference"} 0 1718000000000

# a comment
DCGM_FI_DEV_GPU_TEMP{gpu="0"} 41.5
up 1
"""


def test_a_page_of_the_exporter() -> None:
    assert list(samples(PAGE)) == [
        Sample(
            "DCGM_FI_DEV_GPU_UTIL",
            {"gpu": "0", "UUID": "GPU-1", "modelName": "Tesla T4", "hostname": "n1", "pod": ""},
            37.0,
        ),
        Sample(
            "DCGM_FI_DEV_GPU_UTIL",
            {"gpu": "1", "UUID": "GPU-2", "pod": "infer-0", "namespace": "gpu-inference"},
            0.0,
        ),
        Sample("DCGM_FI_DEV_GPU_TEMP", {"gpu": "0"}, 41.5),
        Sample("up", {}, 1.0),
    ]


def test_only_the_names_asked_for() -> None:
    found = list(samples(PAGE, {"DCGM_FI_DEV_GPU_TEMP"}))
    assert found == [Sample("DCGM_FI_DEV_GPU_TEMP", {"gpu": "0"}, 41.5)]


def test_escapes_spaces_and_special_values() -> None:
    text = (
        'm{a="x\\\\y", b = "say \\"hi\\"",c="two\\nlines"} NaN\r\n'
        "m +Inf\n"
        "m{} -Inf\n"
        "m   1e-3\n"
        '  m {a="b"}   2  \n'
    )
    found = list(samples(text))
    assert found[0].labels == {"a": "x\\y", "b": 'say "hi"', "c": "two\nlines"}
    assert math.isnan(found[0].value)
    assert [s.value for s in found[1:]] == [math.inf, -math.inf, 0.001, 2.0]
    assert found[4].labels == {"a": "b"}


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('m{a="b} 1', "line 1: unterminated label value"),
        ('m{a="\\t"} 1', "line 1: unknown escape in a label value: '\\\\t'"),
        ('m{a="b",a="c"} 1', "line 1: label a given twice"),
        ('m{a="b" c="d"} 1', "line 1: expected , or } after label a"),
        ("m{a=b} 1", 'line 1: expected =" after label a'),
        ('m{1a="b"} 1', "line 1: expected a label name at column 3"),
        ("m", "line 1: expected a value (and a timestamp) after m"),
        ("m 1 2 3", "line 1: expected a value (and a timestamp) after m"),
        ("m one", "line 1: not a sample value: 'one'"),
        ("m 1 later", "line 1: not a timestamp: 'later'"),
        ("# ok\n9m 1", "line 2: expected a metric name"),
        ("m-x 1", "line 1: unexpected '-' after m"),
        ("<html>", "line 1: expected a metric name"),
    ],
)
def test_malformed_lines_are_named(text: str, reason: str) -> None:
    with pytest.raises(MetricsFormatError) as err:
        list(samples(text))
    assert str(err.value) == reason


def test_a_malformed_line_of_another_metric_is_still_an_error() -> None:
    """Lines of metrics not asked for are read up to their name, never past a broken one."""
    with pytest.raises(MetricsFormatError, match="line 1"):
        list(samples("9bad 1\nm 2", {"m"}))


_label_names = st.from_regex(r"[a-zA-Z_][a-zA-Z0-9_]{0,8}", fullmatch=True)
_label_values = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)))


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


@given(
    name=st.from_regex(r"[a-zA-Z_:][a-zA-Z0-9_:]{0,20}", fullmatch=True),
    labels=st.dictionaries(_label_names, _label_values, max_size=6),
    value=st.floats(allow_nan=False),
    trailing_comma=st.booleans(),
)
def test_what_prometheus_writes_reads_back(
    name: str, labels: dict[str, str], value: float, trailing_comma: bool
) -> None:
    body = ",".join(f'{k}="{_escape(v)}"' for k, v in labels.items())
    if labels and trailing_comma:
        body += ","
    line = f"{name}{{{body}}} {value!r}"
    assert list(samples(line)) == [Sample(name, labels, value)]
