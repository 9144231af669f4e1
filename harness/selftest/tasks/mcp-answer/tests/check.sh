# The hidden check, as the verifier user: it reads the answer through the broker.
answer=$(python3 -m nabverify cat /workspace/answer) || exit 1
echo "answer: $answer"
[ "$answer" = 42 ]
