"""GKE (Google Kubernetes Engine): its GPU facts, each with its source."""
