# The code under test is the agent's final workspace. It runs in a probe as the sandbox
# user; `import textkit` here gives proxies (see /nab/lib/nabverify/pyremote.py), and every
# value it returns comes back as data that the tests below compare with their own.
import nabverify

nabverify.python().install("textkit")
