"""Benchmarks of the offline preview and the policy pack at platform scale (``make bench``).

``synthetic`` builds valid configs of any size, ``floors`` the same number of registrations
without our code, ``scale`` times validation, registration and the pack against them,
``startup`` times whole processes, ``setup_time`` a fresh install and ``make test``;
``report`` prints and writes the results, ``cli`` ties them together.
"""
