"""CrossGuard policies for GPU workloads on Kubernetes, one policy per module.

``registry`` lists them in one place; ``policies/__main__.py`` builds the ``PolicyPack``.
"""
