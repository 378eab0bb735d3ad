"""Resource tags judged by the cloud's own limits (``gpu_facts.cloud_tags``) before any resource
carries them: how many, how long, which characters and prefixes."""

from __future__ import annotations

from collections.abc import Mapping

from gpu_facts.cloud_tags import ACK_TAGS, AZURE_TAGS, TagRules

from .problems import Problem


def tag_problems(tags: Mapping[str, str], rules: TagRules) -> list[Problem]:
    """("", why) for the whole map (too many tags), (key, why) for each bad tag."""
    problems: list[Problem] = []
    if len(tags) > rules.max_tags:
        problems.append(
            ("", f"{len(tags)} tags; {rules.cloud} takes at most {rules.max_tags} per resource")
        )
    seen: dict[str, str] = {}
    for key, value in tags.items():
        problem = _tag_problem(key, value, rules)
        folded = key.lower() if rules.case_insensitive_keys else key
        if problem is None and folded in seen:
            problem = (
                f"{rules.cloud} tag names ignore case: {key!r} is the same tag as {seen[folded]!r}"
            )
        seen.setdefault(folded, key)
        if problem is not None:
            problems.append((key, problem))
    return problems


def _tag_problem(key: str, value: str, rules: TagRules) -> str | None:
    cloud = rules.cloud
    if not key or len(key) > rules.key_max:
        return f"{cloud} tag names are 1-{rules.key_max} characters, not {len(key)}"
    forbidden = rules.key_forbidden_chars
    # Azure's naming rules also refuse control characters in names.
    bad = sorted({c for c in key if forbidden and (c in forbidden or not c.isprintable())})
    if bad:
        shown = ", ".join(repr(c) for c in bad)
        return (
            f"{cloud} tag names must not contain {shown} (none of {forbidden} "
            "or a control character)"
        )
    if len(value) > rules.value_max:
        return f"{cloud} tag values are at most {rules.value_max} characters, not {len(value)}"
    for what, text in (("name", key), ("value", value)):
        for prefix in rules.forbidden_prefixes:
            if text.startswith(prefix):
                return f"{cloud} refuses a tag {what} starting with {prefix!r}"
        for part in rules.forbidden_substrings:
            if part in text:
                return f"{cloud} refuses a tag {what} containing {part!r}"
    return None


def azure_tag_problems(tags: Mapping[str, str]) -> list[Problem]:
    return tag_problems(tags, AZURE_TAGS)


def ack_tag_problems(tags: Mapping[str, str]) -> list[Problem]:
    return tag_problems(tags, ACK_TAGS)
