# The code under test is the agent's final workspace. It runs in a probe as the sandbox
# user; `import pager` here gives proxies (see /nab/lib/nabverify/pyremote.py).
import nabverify

nabverify.python().install("pager")
