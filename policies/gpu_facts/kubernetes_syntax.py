"""Kubernetes' own syntax beyond names (``name_rules``): label and annotation keys, and CronJob
schedules, each with where Kubernetes states it."""

from __future__ import annotations

# --- Labels and annotations --------------------------------------------------------------

LABELS_DOC = "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/"
LABEL_KEY_PREFIX_MAX = 253
"""A key's optional ``prefix/`` is a DNS subdomain of at most 253 characters
(``name_rules.DNS1123_SUBDOMAIN``; apimachinery ``IsQualifiedName``)."""
RESERVED_LABEL_DOMAINS: tuple[str, ...] = ("kubernetes.io", "k8s.io")
""""The kubernetes.io/ and k8s.io/ prefixes are reserved for Kubernetes core components"
(``LABELS_DOC``). On nodes the kubelet refuses ``--node-labels`` in these domains but for the
few it sets itself (kubernetes/kubernetes ``pkg/kubelet/apis/well_known_labels.go``), and AKS
lists ``kubernetes.io/`` as reserved for node pool labels
(https://learn.microsoft.com/azure/aks/use-labels)."""
ANNOTATIONS_MAX_BYTES = 256 * 1024
"""``TotalAnnotationSizeLimitB``: the keys and values of one object's annotations together, in
bytes (k8s.io/apimachinery ``pkg/api/validation/objectmeta.go``)."""
ANNOTATIONS_SOURCE = (
    "https://github.com/kubernetes/apimachinery/blob/master/pkg/api/validation/objectmeta.go"
)

# --- CronJob schedules -------------------------------------------------------------------
# Kubernetes validates spec.schedule with robfig/cron/v3's ParseStandard (kubernetes/kubernetes
# pkg/apis/batch/validation/validation.go validateScheduleFormat; robfig/cron v3.0.1 parser.go,
# unchanged since 2021-01-06).
CRON_SOURCE = "https://github.com/robfig/cron/blob/v3.0.1/parser.go"
CRONJOB_VALIDATION = (
    "https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/batch/validation/validation.go"
)

CRON_FIELDS: tuple[tuple[str, int, int], ...] = (
    ("minute", 0, 59),
    ("hour", 0, 23),
    ("day of month", 1, 31),
    ("month", 1, 12),
    ("day of week", 0, 6),
)
"""The five fields of a standard schedule, in order, with their bounds (``minutes``,
``hours``, ``dom``, ``months``, ``dow`` in parser.go: day of week 7 is refused)."""
CRON_MONTH_NAMES: dict[str, int] = {
    name: i
    for i, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
        start=1,
    )
}
"""Month names, matched case-insensitively, usable in ranges (``jan-mar``)."""
CRON_DAY_NAMES: dict[str, int] = {
    name: i for i, name in enumerate(("sun", "mon", "tue", "wed", "thu", "fri", "sat"))
}
"""Day-of-week names, matched case-insensitively."""
CRON_DESCRIPTORS: dict[str, str] = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
}
"""The predefined schedules and what they mean (matched exactly: ``@Daily`` is refused)."""
CRON_EVERY = "@every "
"""``@every <Go duration>`` (``@every 1h30m``) parses too, so the API server takes it; the
CronJob controller runs it since kubernetes#109250."""
CRON_TZ_PREFIXES: tuple[str, ...] = ("CRON_TZ=", "TZ=")
"""A time zone before the schedule, as robfig/cron reads it. On create the API server refuses
any schedule that contains ``TZ`` ("cannot use TZ or CRON_TZ in schedule, use timeZone field
instead", ``CRONJOB_VALIDATION``; since Kubernetes 1.29)."""
