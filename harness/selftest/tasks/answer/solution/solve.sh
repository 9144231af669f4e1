echo 42 > /workspace/answer
