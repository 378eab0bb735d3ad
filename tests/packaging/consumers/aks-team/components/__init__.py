"""The team's own ``components`` package: a generic name a package must not shadow."""

TEAM = "vision"
