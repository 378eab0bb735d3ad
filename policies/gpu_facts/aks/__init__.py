"""AKS (Azure Kubernetes Service): its GPU facts, each with its source."""
