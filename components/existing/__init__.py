"""An existing cluster, reached with a kubeconfig: its components."""
