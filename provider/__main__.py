"""gpu-platform's component provider, started by Pulumi as ``python provider <engine-address>``.

The schema is inferred from the components' typed args (``provider/schema.json`` is the
reviewed copy); ``gpu_platform.component_provider`` says what it adds to the SDK's host.
"""

from gpu_platform.component_provider import host

if __name__ == "__main__":
    host()
