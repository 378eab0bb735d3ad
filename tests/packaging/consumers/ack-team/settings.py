"""The team's own settings module: a generic name a package must not shadow."""

POOL_NAME = "t4"
MAX_NODES = 2
