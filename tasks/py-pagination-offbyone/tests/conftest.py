import sys

# The code under test is the agent's final workspace.
sys.path.insert(0, "/workspace")
