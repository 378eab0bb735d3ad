"""ACK (Alibaba Cloud Kubernetes): its GPU facts, each with its source."""
