"""Node readiness checks: parsing what GPU tools print on a node."""
