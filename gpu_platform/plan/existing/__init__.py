"""An existing cluster, reached with a kubeconfig: what a valid config means there."""
