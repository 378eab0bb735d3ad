"""EKS (Amazon Elastic Kubernetes Service): its GPU facts, each with its source."""
