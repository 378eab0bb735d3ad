"""The fake API server of ``test_verify.py`` (the recorded cluster, served over real HTTP and the
exec websocket), and its AMD recording of ``test_verify_amd.py``, shared with the other ``make
verify`` scenario files of this folder."""

from tests.stacks.test_verify import api_server, cluster, kubeconfig  # noqa: F401
from tests.stacks.test_verify_amd import amd_cluster, amd_kubeconfig  # noqa: F401
