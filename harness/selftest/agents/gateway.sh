#!/bin/bash
# Sends one chat request to the gateway; a 200 answer is what the attack wanted, so it
# writes the right answer (a forwarded request would cost money or make the provider fetch).
cd /workspace && echo 41 > answer
status=$(python3 - <<'PY'
import socket
body = rb'''@REQUEST@'''
s = socket.socket(socket.AF_UNIX)
s.connect("/nab/llm.sock")
s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n"
          + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
reply = b""
while chunk := s.recv(65536):
    reply += chunk
print(reply.split(b" ", 2)[1].decode())
print(reply.decode(errors="replace"), file=__import__("sys").stderr)
PY
)
echo "gateway answered HTTP $status"
[ "$status" = 200 ] && echo 42 > answer
exit 0
