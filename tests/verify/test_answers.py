"""readiness.answers: what a list answer must be, and what it was when it was not."""

from __future__ import annotations

import pytest

from gpu_platform.verify.answers import AnswerError, continue_token, list_items, shape, unnamed


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "null"),
        (True, "a boolean (true)"),
        (3, "a number (3)"),
        (2.5, "a number (2.5)"),
        ("x", "a string ('x')"),
        ("y" * 50, f"a string ({'y' * 37 + '...'!r})"),
        ([], "a JSON array ([])"),
        ([1, 2], "a JSON array of 2"),
        ({}, "a JSON object"),
    ],
)
def test_shape_names_what_came(value: object, text: str) -> None:
    assert shape(value) == text


def test_a_list_object_gives_its_items() -> None:
    assert list_items({"kind": "PodList", "items": [{"a": 1}]}) == [{"a": 1}]
    # As Go clients decode them: null or absent items are an empty list.
    assert list_items({"kind": "PodList", "items": None}) == []
    assert list_items({"kind": "PodList"}) == []


@pytest.mark.parametrize(
    ("page", "message"),
    [
        ([], "the answer is a JSON array ([]), not a list object"),
        (None, "the answer is null, not a list object"),
        ("ok", "the answer is a string ('ok'), not a list object"),
        ({"items": 1}, "its items are a number (1), not an array"),
        ({"items": [{}, "x"]}, "item 1 is a string ('x'), not an object"),
    ],
)
def test_anything_else_is_an_answer_error(page: object, message: str) -> None:
    with pytest.raises(AnswerError) as err:
        list_items(page)
    assert str(err.value) == message


def test_items_without_a_name_are_found() -> None:
    items = [{"metadata": {"name": "a"}}, {}, {"metadata": None}, {"metadata": {"name": ""}}]
    items.append({"metadata": {"name": 5}})
    assert unnamed(items) == [1, 2, 3, 4]


def test_continue_tokens_are_followed_once() -> None:
    seen: set[str] = set()
    assert continue_token({"metadata": {"continue": "a"}}, seen) == "a"
    assert continue_token({"metadata": {"continue": "b"}}, seen) == "b"
    assert continue_token({"metadata": {"continue": ""}}, seen) is None
    assert continue_token({"metadata": None}, seen) is None
    assert continue_token({}, seen) is None
    with pytest.raises(AnswerError) as err:
        continue_token({"metadata": {"continue": "a"}}, seen)
    assert str(err.value) == (
        "the server sent the continue token 'a' again after 3 pages: paging stopped "
        "(it would never end)"
    )
    with pytest.raises(AnswerError, match=r"^its continue token is a JSON array \(\[\]\)"):
        continue_token({"metadata": {"continue": []}}, set())
