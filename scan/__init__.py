"""``make scan``: the plan exported as what scanners read, checked by checkov against a baseline.

``export`` turns a plan (the offline preview's recorded resources) into Kubernetes manifests
and an ARM template, with no Pulumi and no checkov; ``checkov`` runs the scanner in its own
virtualenv and reads its results; ``baseline`` compares them with the checks a stack accepts
failing; ``cli`` is ``python -m scan``. See docs/security.md.
"""
