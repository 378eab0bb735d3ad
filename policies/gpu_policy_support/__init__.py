"""What the pack's policies share, apart from the policies themselves (``gpu_policies``).

Readers of the resources a program declares, as GPU concepts whatever SDK declared them: node
pools (``node_pools``), pod specs and their placement (``pod_specs``, ``node_placement``,
``tolerations``), images, Helm releases, device-plugin DaemonSets and configs, metrics
exporters, driver checks, the GPU resources a stack exposes, a stack's resources by type
(``stack_index``), typed reads of props (``props``, ``resource_types``); and the factory every
policy is built with (``policy_factory``). Ships with the pack (``policies/pyproject.toml``).
"""
