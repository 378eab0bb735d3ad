"""AKS (Azure Kubernetes Service): its components."""
