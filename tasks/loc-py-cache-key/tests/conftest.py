# The code under test is the agent's final workspace. It runs in a probe as the sandbox
# user; `import reports` here gives proxies (see /nab/lib/nabverify/pyremote.py), and every
# value it returns comes back as data that the tests compare with their own. The probe also
# imports the call_key subjects from /nab/probes (tests/probes/cachekey_subjects.py).
import nabverify

nabverify.python(paths=["/nab/probes", "/workspace"]).install("reports", "cachekey_subjects")
