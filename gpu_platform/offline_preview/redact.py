"""What the preview shows never carries a credential: URLs and secret values redacted.

The plan, the verdicts, notices and error messages go to CI logs and pull-request comments.

- **URLs**: a user and password (``https://user:token@host``, ``oci://user:token@host``, an
  image reference ``user:token@registry.example.com/app``) and the value of every query
  parameter named like a credential (``?token=...``, ``access_token``, a signed URL's
  ``X-Amz-Signature`` or ``sig``) are replaced by ``[redacted]``, wherever a URL is shown (a
  message, a value of the plan) or used as a name (a cache folder).
- **Secret values**: every string the run holds as a secret (a ``Secret`` marker's text, a
  secret config value, a kubeconfig however it came) is replaced by ``[secret]`` wherever it
  appears in text we print, as the Pulumi CLI masks secret values in its output. Strings
  shorter than ``MIN_SECRET_LENGTH`` are left alone (``"1"`` would blank every digit), and a
  long multi-line secret (a kubeconfig) is matched line by line too, so a quoted line of it is
  masked as well; and in what is said about the resource holding a secret (a policy's
  message) each piece of it between delimiters (``secret_pieces``), so a policy that quotes
  part of a secret image masks that part. Strings inside a secret structure that are words of
  the pack's own public text (``public_words``: ``NVIDIA_VISIBLE_DEVICES``, ``nvidia.com/gpu``)
  are not taken for the secret, so a verdict on such a pod still says what to change.

Pure: the standard library only (a program's own virtualenv imports it too).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

REDACTED = "[redacted]"
SECRET_TEXT = "[secret]"
MIN_SECRET_LENGTH = 4
"""Shorter secret strings are not searched for in text (they would match everywhere)."""
MIN_SECRET_LINE = 8
"""A line of a multi-line secret at least this long is searched for on its own."""

_URL = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<rest>[^\s'\"<>`]*[^\s'\"<>`.,;:)])")
"""A URL in text, without the punctuation that ends a sentence or a clause after it."""
_USERINFO_WITHOUT_SCHEME = re.compile(
    r"(?<![\w./:@%+~-])[\w.~%+-]+:[^\s/@:'\"`]+@(?=[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)"
)
"""``user:token@registry.example.com``: credentials in a reference without a scheme (an image
reference). A digest (``app:1.2@sha256:...``) has no dotted host after the ``@``."""


_CREDENTIAL_PARAM = re.compile(
    r"token|sig|secret|passw|pwd|auth|key|credential|session|code|signature", re.IGNORECASE
)
"""Query parameters whose value is a credential: tokens, signatures (S3's ``X-Amz-*``, Azure
SAS ``sig``, GCS ``X-Goog-Signature``), keys, passwords, OAuth codes."""


def _redact_query(query: str) -> str:
    """Each ``name=value`` of a query as it is, but a credential's value (idempotent)."""
    parts = []
    for part in query.split("&"):
        name, eq, _ = part.partition("=")
        parts.append(f"{name}={REDACTED}" if eq and _CREDENTIAL_PARAM.search(name) else part)
    return "&".join(parts)


def redact_url(url: str) -> str:
    """``url`` with its user, password and query values replaced by ``[redacted]``."""
    match = _URL.match(url)
    if match is None:
        return _USERINFO_WITHOUT_SCHEME.sub(f"{REDACTED}@", url)
    scheme, rest = match["scheme"], match["rest"] + url[match.end() :]
    rest, hash_, fragment = rest.partition("#")
    rest, question, query = rest.partition("?")
    authority, slash, path = rest.partition("/")
    if "@" in authority:
        authority = f"{REDACTED}@{authority.rpartition('@')[2]}"
    redacted = f"{scheme}{authority}{slash}{path}"
    if question:
        redacted += f"?{_redact_query(query)}"
    return redacted + (f"#{fragment}" if hash_ else "")


def redact_urls(text: str) -> str:
    """Every URL in ``text`` redacted (``redact_url``), credentials without a scheme too."""
    text = _URL.sub(lambda m: redact_url(m.group(0)), text)
    return _USERINFO_WITHOUT_SCHEME.sub(f"{REDACTED}@", text)


_PIECES = re.compile(r"[\s/:@?&=,;\"'`]+")
MIN_SECRET_PIECE = 6
"""A piece of a secret (between ``/``, ``:``, ``@``...) at least this long is searched for in
what is said about the resource that holds it: a policy quoting part of a secret image."""


def secret_pieces(secrets: set[str]) -> set[str]:
    """The pieces of ``secrets`` a message may quote on its own (``MIN_SECRET_PIECE``)."""
    return {p for s in secrets for p in _PIECES.split(s) if len(p) >= MIN_SECRET_PIECE}


_WORDS = re.compile(r"[\w.\-/]+")


def public_words(texts: Iterable[str]) -> set[str]:
    """The words of public text (the pack's own descriptions and fixes): a string inside a
    secret structure that is one of them (``NVIDIA_VISIBLE_DEVICES``, ``nvidia.com/gpu``) is a
    name the pack gives, not the secret."""
    return {word for text in texts for word in _WORDS.findall(text)}


def secret_strings(value: Any) -> set[str]:
    """Every string inside ``value`` (a secret's value: maps, lists, text)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif hasattr(item, "value") and type(item).__name__ == "Secret":
            stack.append(item.value)
    return found


class Redactor:
    """Masks the secrets it knows, and credentials in URLs, in text and in plain values."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets = list(secrets)
        needles: set[str] = set()
        lines: set[str] = set()
        for secret in self._secrets:
            if len(secret) >= MIN_SECRET_LENGTH:
                needles.add(secret)
            if "\n" in secret:
                stripped = (line.strip() for line in secret.splitlines())
                lines.update(line for line in stripped if len(line) >= MIN_SECRET_LINE)
        lines -= needles
        # Longest first: a secret that contains another is masked whole. A line of a secret is
        # masked only where no word goes on around it: a kubeconfig's ``kind: Config`` must not
        # eat the start of another text's ``kind: Configuration``.
        alternatives = sorted(
            [(n, re.escape(n)) for n in needles]
            + [(n, rf"(?<!\w){re.escape(n)}(?!\w)") for n in lines],
            key=lambda pair: len(pair[0]),
            reverse=True,
        )
        # Every match holds one of these strings: a value holding none of them is not searched,
        # and the pattern (an alternation as long as the secrets' lines) is compiled only for a
        # value that holds one.
        self._literals = tuple(n for n, _ in alternatives)
        self._source = "|".join(p for _, p in alternatives)
        self._compiled: re.Pattern[str] | None = None

    def __bool__(self) -> bool:
        return bool(self._literals)

    def _pattern_in(self, text: str) -> re.Pattern[str] | None:
        """The secrets' pattern when ``text`` may hold a secret, else None."""
        if not any(literal in text for literal in self._literals):
            return None
        if self._compiled is None:
            self._compiled = re.compile(self._source)
        return self._compiled

    def with_secrets(self, secrets: Iterable[str]) -> Redactor:
        return Redactor([*self._secrets, *secrets])

    def text(self, text: str) -> str:
        """``text`` with every known secret masked and every URL redacted."""
        pattern = self._pattern_in(text)
        if pattern is not None:
            text = pattern.sub(SECRET_TEXT, text)
        return redact_urls(text)

    def value(self, value: Any) -> Any:
        """A plain value (inputs, outputs) with every string that holds a known secret or a
        URL's credentials masked; ``Secret`` markers and everything else as they are."""
        if isinstance(value, str):
            pattern = self._pattern_in(value)
            if pattern is not None and pattern.search(value):
                value = pattern.sub(SECRET_TEXT, value)
            return redact_urls(value) if ("@" in value or "?" in value) else value
        if isinstance(value, dict):
            return {k: self.value(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(v) for v in value]
        return value


WITHHELD = "the rest is withheld: it may quote the secret values it was made from, in any form"
_TEMPLATE_AT = re.compile(r"[\w.-]+(?:/[\w.-]+)+\.(?:yaml|yml|tpl|txt|json)(?::\d+)*")
"""Where in a chart a message points (``mychart/templates/cm.yaml:1:25``): the chart's own."""


class QuotingError(Exception):
    """An error whose message quotes untrusted content (a manifest, Helm's or a post-renderer's
    own words), which may hold a value made from a secret in a form no mask recognises
    (upper-cased, base64, cut short): ``shown`` withholds the quote when the content came from
    secrets, and keeps where in a chart it points."""

    def __init__(self, message: str, quoted: str = "") -> None:
        super().__init__(f"{message}: {quoted}" if quoted else message)
        self.summary, self.quoted = message, quoted

    def shown(self, from_secrets: bool) -> str:
        if not (from_secrets and self.quoted):
            return str(self)
        where = _TEMPLATE_AT.search(self.quoted)
        return f"{self.summary}{f' (at {where[0]})' if where else ''}: {WITHHELD}"
