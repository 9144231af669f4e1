# The code under test is imported from the agent's final workspace by explicit path.
# Appending (not prepending) keeps stdlib modules from being shadowed by workspace files.
import sys

WORKSPACE = "/workspace"
if WORKSPACE not in sys.path:
    sys.path.append(WORKSPACE)
