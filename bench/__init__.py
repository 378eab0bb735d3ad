"""Benchmarks of the offline preview and the policy pack at platform scale (``make bench``).

``synthetic`` builds valid configs of any size, ``scale`` times validation, registration and
the pack against a floor of plain resources, ``startup`` times whole processes,
``setup_time`` a fresh install and ``make test``; ``report`` prints and writes the results.
"""
