"""ACK (Alibaba Cloud Kubernetes): what a valid config means there, each rule once."""
