# The hidden check. It waits a second first, so that a process the build step left
# behind has the time to change the answer (it must have been killed between the steps).
expected=42
echo "check runs as uid=$(id -u)"
sleep 1
answer=$(python3 -m nabverify cat /workspace/answer) || exit 1
echo "answer: $answer"
[ "$answer" = "$expected" ]
