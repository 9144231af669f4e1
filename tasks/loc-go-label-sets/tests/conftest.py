# The code under test is the agent's module, built with the probe of these tests
# (/nab/probes/tallyprobe/) by the `user: sandbox` step before this runner starts; each
# test writes a configuration and a capture through the broker and runs the probe on
# them (tallyprobe.py).
