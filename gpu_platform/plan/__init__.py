"""What a valid stack config means, with no Pulumi in sight, and every rule of it once.

The rules: functions returning problems with paths relative to what they judge
(``problems``), for a GPU pool (``gpu_pools``), a CPU pool (``cpu_pools``), any pool
(``node_pools``), AKS nodes and clusters (``aks.nodes``, ``aks.cluster``), ACK clusters and
sharing (``ack.cluster``, ``ack.gpu_sharing``), chart values (``nvidia.device_plugin_values``) and
namespaces (``namespaces``); the stack config, the components and the pack ask them. What a
valid config means: pool facts from the GPU catalog (``pools``), node labels and tags per cloud
(``node_labels``), device-plugin configs (``nvidia.device_plugin``), namespace labels, Pod Security
levels and quotas (``namespaces``), which pools get a driver check (``driver_checks``), and
the resolved platform (``platform``). Config validation, the components and ``make verify``
all read these, so what is checked, built and verified cannot drift.
"""
