"""What a valid stack config means, with no Pulumi in sight.

Pool facts from the GPU catalog (``pools``), node labels and tags per cloud (``node_labels``),
device-plugin configs and values (``device_plugin``, ``device_plugin_values``), namespace
labels, Pod Security levels and quotas (``namespaces``), which pools get driver checks
(``readiness``), and the resolved platform (``platform``). Config validation, the components
and ``make verify`` all read these, so what is checked, built and verified cannot drift.
"""
