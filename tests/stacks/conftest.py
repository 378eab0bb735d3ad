"""The fake API server of ``test_verify.py`` (the recorded cluster, served over real HTTP and the
exec websocket), and its AMD recording of ``test_verify_amd.py``, shared with the other ``make
verify`` scenario files of this folder."""

from tests.stacks.test_verify import (  # noqa: F401
    _loopback_without_proxy,  # autouse: loopback without an HTTP proxy in every file here
    api_server,
    cluster,
    kubeconfig,
)
from tests.stacks.test_verify_amd import amd_cluster, amd_kubeconfig  # noqa: F401
