"""ACK (Alibaba Cloud Kubernetes): its components."""
