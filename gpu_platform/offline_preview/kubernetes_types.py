"""The Kubernetes provider's components the offline preview builds as the provider does
(``kubernetes_components``): their children are what a real preview shows."""

CHART = "kubernetes:helm.sh/v4:Chart"
CONFIG_FILE = "kubernetes:yaml/v2:ConfigFile"
CONFIG_GROUP = "kubernetes:yaml/v2:ConfigGroup"
KINDS = {
    CHART: "Helm v4 Chart",
    CONFIG_FILE: "yaml/v2 ConfigFile",
    CONFIG_GROUP: "yaml/v2 ConfigGroup",
}
"""Each component's type token and how a message names it."""
BUILT_OFFLINE = frozenset(KINDS)
