"""The fake API server of ``test_verify.py`` (the recorded cluster, served over real HTTP and the
exec websocket), shared with the other ``make verify`` scenario files of this folder."""

from tests.stacks.test_verify import api_server, cluster, kubeconfig  # noqa: F401
