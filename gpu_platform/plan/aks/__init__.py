"""AKS (Azure Kubernetes Service): what a valid config means there, each rule once."""
