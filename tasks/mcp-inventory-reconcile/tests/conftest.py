# Roots pytest here; nothing from the workspace is configuration.
