"""AMD GPUs: ``make verify`` on its pools."""
