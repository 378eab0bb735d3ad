"""Reusable Pulumi ComponentResources for a GPU-ready Kubernetes platform."""
